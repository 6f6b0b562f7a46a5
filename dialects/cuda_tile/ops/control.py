"""Structured control flow (for, loop, if, yield, continue, break)."""

from __future__ import annotations
