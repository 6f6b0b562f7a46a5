"""Comparisons and selection (cmpf, cmpi, select)."""

from __future__ import annotations
