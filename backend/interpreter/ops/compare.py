"""Executors of the ``compare`` ops (exact): ``cmpi``, ``cmpf``, ``select``.

``cmpi`` reads its operands as its ``signedness`` says; ``cmpf ordered`` is
false and ``unordered`` true when either operand is NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import (
    ComparisonOrdering,
    ComparisonPredicate,
    Signedness,
)
from safetile.dialects.cuda_tile.ops import compare

from ..engine import Builder, Executor, Frame, Program
from safetile.backend.elements import signed, unsigned
from .common import width

_PREDICATES = {
    ComparisonPredicate.EQUAL: np.equal,
    ComparisonPredicate.NOT_EQUAL: np.not_equal,
    ComparisonPredicate.LESS_THAN: np.less,
    ComparisonPredicate.LESS_THAN_OR_EQUAL: np.less_equal,
    ComparisonPredicate.GREATER_THAN: np.greater,
    ComparisonPredicate.GREATER_THAN_OR_EQUAL: np.greater_equal,
}


def _build_cmpi(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, compare.CmpIOp)
    fn = _PREDICATES[op.comparison_predicate.data]
    w = width(op.lhs)
    read = signed if op.signedness.data == Signedness.SIGNED else unsigned

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.asarray(fn(read(a[0], w), read(a[1], w))),)

    return run


def _build_cmpf(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, compare.CmpFOp)
    predicate = op.comparison_predicate.data
    fn = _PREDICATES[predicate]
    unordered = op.comparison_ordering.data == ComparisonOrdering.UNORDERED

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x, y = a
        nan = np.isnan(x) | np.isnan(y)
        if predicate is ComparisonPredicate.NOT_EQUAL:
            result = (x != y) & ~nan  # numpy's != is true for NaN
        else:
            result = fn(x, y)
        return (np.asarray(result | nan if unordered else result),)

    return run


def _build_select(op: Operation, kernel: Program) -> Executor:
    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.where(a[0], a[1], a[2]),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    compare.CmpIOp: _build_cmpi,
    compare.CmpFOp: _build_cmpf,
    compare.SelectOp: _build_select,
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``reduction``)."""
