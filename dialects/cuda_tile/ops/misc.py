"""Tile-block queries, assume hints, assert, print_tko and grid dependency control."""

from __future__ import annotations
