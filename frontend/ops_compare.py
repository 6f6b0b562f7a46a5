"""Comparison and selection, the dialect's ``compare`` family: ``< <= > >= ==
!=`` give ``bool`` tiles (``!=`` is true for NaN; integers compare with
their element type's signedness) and ``st.where`` selects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from safetile.dialects.cuda_tile.attributes import (
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    SignednessAttr,
)
from safetile.dialects.cuda_tile.ops.compare import CmpFOp, CmpIOp, SelectOp

from . import dsl
from .builtins import implements, operator
from .core import as_tile, broadcast_to, describe, emit, is_number, need, signedness, unify
from .types import TileValue, broadcast_shapes

if TYPE_CHECKING:
    from .lower import Lowerer


_PREDICATES = {
    "Lt": ComparisonPredicate.LESS_THAN,
    "LtE": ComparisonPredicate.LESS_THAN_OR_EQUAL,
    "Gt": ComparisonPredicate.GREATER_THAN,
    "GtE": ComparisonPredicate.GREATER_THAN_OR_EQUAL,
    "Eq": ComparisonPredicate.EQUAL,
    "NotEq": ComparisonPredicate.NOT_EQUAL,
}
_SYMBOLS = {"Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "Eq": "==", "NotEq": "!="}


def compare_tiles(lx: Lowerer, name: str, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, _SYMBOLS[name], a, b)
    predicate = ComparisonPredicateAttr(_PREDICATES[name])
    if x.dtype.is_float:
        need(lx, x, _SYMBOLS[name], "float")
        # Python's != is true when either side is NaN; the others are false.
        ordering = ComparisonOrdering.UNORDERED if name == "NotEq" else ComparisonOrdering.ORDERED
        return emit(
            lx,
            CmpFOp,
            [x, y],
            dsl.bool_,
            comparison_predicate=predicate,
            comparison_ordering=ComparisonOrderingAttr(ordering),
        )
    if x.dtype.kind == "ptr":
        raise lx.error("pointers cannot be compared", "compare st.ptr_to_int(p) values")
    return emit(lx, CmpIOp, [x, y], dsl.bool_, comparison_predicate=predicate, signedness=SignednessAttr(signedness(x.dtype)))


def _register_compare(name: str) -> None:
    @operator(name)
    def lower(lx: Lowerer, a: Any, b: Any) -> TileValue:
        return compare_tiles(lx, name, a, b)


for _name in _PREDICATES:
    _register_compare(_name)


def select_tiles(lx: Lowerer, cond: TileValue, a: TileValue, b: TileValue) -> TileValue:
    op = lx.add(SelectOp(cond.value, a.value, b.value))
    return TileValue(op.result, a.dtype)


@implements(dsl.where)
def _where(lx: Lowerer, cond: Any, a: Any, b: Any) -> TileValue:
    c = as_tile(lx, cond, dsl.bool_, "the condition")
    if c.dtype != dsl.bool_:
        raise lx.error(
            f"the condition of st.where must be bool, got {c.describe()}", "compare first, e.g. x > 0"
        )
    if not isinstance(a, TileValue) and not isinstance(b, TileValue):
        if not (is_number(a) and is_number(b)):
            raise lx.error(f"st.where needs tiles or numbers, got {describe(a)} and {describe(b)}")
    x, y = unify(lx, "st.where", a, b)
    shape = broadcast_shapes(c.shape, x.shape)
    if shape is None:
        raise lx.error(
            f"the condition {c.describe()} does not broadcast with {x.describe()}",
            "dimensions must be equal or 1 (aligned from the right)",
        )
    return select_tiles(lx, broadcast_to(lx, c, shape), broadcast_to(lx, x, shape), broadcast_to(lx, y, shape))
