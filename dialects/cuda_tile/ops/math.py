"""Math functions on float tiles (exp, sqrt, tanh, atan2, ...)."""

from __future__ import annotations
