"""Tile creation and shape manipulation (constant, iota, reshape, broadcast, ...)."""

from __future__ import annotations
