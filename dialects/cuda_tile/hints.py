"""NVIDIA's optimization-hint checks: ``-Wunsupported-hints`` and ``-Werr-hints``.

By default any architecture key and hint is accepted (tileiras ignores what it
does not know).  Under ``-Wunsupported-hints`` NVIDIA's tools warn, at the op,
about an unknown architecture key, a hint the op does not take, and a value out
of range; ``-Werr-hints`` then also fails the op with "Optimization hints
verification failed" (``OptimizationHintsAttr::verifyWithOp``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import Enum

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation
from xdsl.utils.lexer import Span

from .attributes import ENTRY_HINTS, HINT_ARCHS, PTR_HINTS, VIEW_HINTS, OptimizationHintsAttr
from .diagnostics import Diagnostic, TileIRError, at_span


class HintChecks(Enum):
    """What ``-W`` flags ask of the hint checks."""

    OFF = "off"
    WARN = "warn"  # -Wunsupported-hints
    ERROR = "error"  # -Wunsupported-hints -Werr-hints


OP_HINTS: Mapping[str, Sequence[str]] = {
    "cuda_tile.entry": ENTRY_HINTS,
    "cuda_tile.load_view_tko": VIEW_HINTS,
    "cuda_tile.store_view_tko": VIEW_HINTS,
    "cuda_tile.load_ptr_tko": PTR_HINTS,
    "cuda_tile.store_ptr_tko": PTR_HINTS,
}
"""The hints each op takes (NVIDIA's ``keysValidForOperation``)."""

SINGLE_CTA_ARCHS = ("sm_80", "sm_86", "sm_87", "sm_88", "sm_89")
"""Ampere and Ada: no clusters, so ``num_cta_in_cga`` must be 1."""


def hint_warnings(op: Operation, checks: HintChecks) -> tuple[list[str], bool]:
    """The warnings for ``op``'s hints, and whether ``-Werr-hints`` fails it.

    As NVIDIA's verifier: an unknown architecture key ends that key's checks;
    under ``-Werr-hints`` the first key with a warning ends the op's.
    """
    hints = op.properties.get("optimization_hints")
    if checks is HintChecks.OFF or not isinstance(hints, OptimizationHintsAttr):
        return [], False
    allowed = OP_HINTS.get(op.name, ())
    warnings: list[str] = []
    for arch, params in hints.value.data.items():
        if not isinstance(params, DictionaryAttr):
            continue  # the attribute's own verifier refuses it
        found = _arch_warnings(arch, params, allowed)
        warnings += found
        if found and checks is HintChecks.ERROR:
            return warnings, True
    return warnings, False


def _arch_warnings(arch: str, params: DictionaryAttr, allowed: Sequence[str]) -> list[str]:
    if arch not in HINT_ARCHS:
        return [f"unknown hint key {arch}"]
    warnings: list[str] = []
    for key, value in params.data.items():
        if allowed and key not in allowed:
            warnings.append(f"{key} is not known hint for current Operation")
            continue
        problem = _value_problem(arch, key, value)
        if problem is not None:
            warnings.append(problem)
    return warnings


def _value_problem(arch: str, key: str, value: Attribute) -> str | None:
    """NVIDIA's message for a hint value out of its range, or None."""
    where = f"{arch}.{key}"
    if key == "allow_tma":
        return None if _is_bool(value) else f"boolean value expected for {where}"
    if key not in ("num_cta_in_cga", "num_worker_warps_per_cta", "latency", "occupancy"):
        return f"unknown param {key} for {arch}"
    if not isinstance(value, IntegerAttr) or _is_bool(value):
        return f"integer value expected for {where}"
    n = value.value.data
    if key == "num_cta_in_cga":
        if arch.startswith(SINGLE_CTA_ARCHS) and n != 1:
            return f"expected 1 for {where}"
        return None if _power_of_two_at_most(n, 16) else f"expected power-of-two ≤ 16 for {where}"
    if key == "num_worker_warps_per_cta":
        return None if _power_of_two_at_most(n, 32) else f"expected power-of-two ≤ 32 for {where}"
    low, high = (1, 10) if key == "latency" else (1, 32)
    if not low <= n <= high:
        return f"integer value in the range [{low}, {high}] is expected for {where}"
    return None


def _is_bool(value: Attribute) -> bool:
    return isinstance(value, IntegerAttr) and value.type == IntegerType(1)


def _power_of_two_at_most(n: int, limit: int) -> bool:
    return 0 < n <= limit and n & (n - 1) == 0


def check_hints(
    root: Operation,
    spans: Mapping[Operation, Span[str] | Span[bytes]],
    file: str,
    checks: HintChecks,
    warnings: list[Diagnostic],
) -> None:
    """Append the hint warnings of every op in ``root`` to ``warnings``, at the
    op; under ``HintChecks.ERROR`` raise ``TileIRError`` at the first op with one."""
    for op in root.walk():
        messages, failed = hint_warnings(op, checks)
        span = spans.get(op)
        for message in messages:
            if span is None:
                warnings.append(Diagnostic(file, 0, 0, message, severity="warning"))
            else:
                warnings.append(dataclasses.replace(at_span(span, message), severity="warning"))
        if failed:
            message = f"'{op.name}' op Optimization hints verification failed"
            raise TileIRError(
                at_span(span, message) if span is not None else Diagnostic(file, 0, 0, message)
            )
