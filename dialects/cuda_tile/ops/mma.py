"""Matrix multiply-accumulate (mmaf, mmai, mmaf_scaled)."""

from __future__ import annotations
