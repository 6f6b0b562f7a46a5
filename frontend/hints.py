"""Optimization hints: per-arch dictionaries as Tile IR's ``optimization_hints``.

``{"sm_90": {"num_worker_warps_per_cta": 8}, "default": {...}}`` on an entry
(kernel option ``optimization_hints``); ``{"sm_90": {"latency": 6}}`` on a
load or store (kernel options ``load_hints``/``store_hints`` for all of them,
``latency=``/``allow_tma=`` on one call).  tileiras reads the key of the arch
it compiles for, else ``default``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xdsl.dialects.builtin import BoolAttr, IntegerAttr
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import OptimizationHintsAttr

Hints = Mapping[str, Mapping[str, Any]]
MEMORY_HINTS = ("latency", "allow_tma")
"""The hints a load or store takes."""


def hints_attr(hints: Hints) -> OptimizationHintsAttr:
    """``hints`` as the attribute (ints as i64, bools as booleans); ``TypeError`` on other values."""

    def attr(value: Any) -> Attribute:
        if isinstance(value, bool):
            return BoolAttr.from_bool(value)
        if isinstance(value, int):
            return IntegerAttr(value, 64)
        if isinstance(value, Attribute):
            return value
        raise TypeError(f"unsupported optimization hint value {value!r}")

    return OptimizationHintsAttr({arch: {k: attr(v) for k, v in h.items()} for arch, h in hints.items()})


def with_call_hints(hints: Hints, **call: Any) -> dict[str, dict[str, Any]]:
    """The kernel's ``hints`` with one call's values (``latency=6``) put over every
    arch's, and under ``default`` for the archs it does not name."""
    given = {k: v for k, v in call.items() if v is not None}
    merged = {arch: dict(h) for arch, h in hints.items()}
    if given:
        for arch in {*merged, "default"}:
            merged.setdefault(arch, {}).update(given)
    return merged
