"""Reductions and scans with a combiner region (reduce, scan)."""

from __future__ import annotations
