"""Conversions and casts (ftof, itof, exti, bitcast, pointer casts, offset)."""

from __future__ import annotations
