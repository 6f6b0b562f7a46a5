"""Global memory: views, token-ordered loads, stores and atomics, tokens, fences, alloca."""

from __future__ import annotations
