"""The shapes of tile-index math the frontend emits, recognized in the IR.

Matchers only: each says whether a value is computed by a given formula and
returns its parts; what the formula proves (bounds, injectivity) is the
caller's business (``intervals.py``, ``partitions.py``).  Every matcher
looks through ``assume`` ops and accepts the operands of a commutative op
(``addi``, ``muli``, ``mini``) in either order.

The grouped tile order (Triton's ``GROUP_M`` "L2 swizzle") of tile number
``t`` over an ``n0 x n1`` grid of tiles, with a constant group ``G``::

    width = G * n1;  first = (t / width) * G;  rows = min(n0 - first, G)
    m = first + (t % width) % rows;  n = (t % width) / rows

(``muli``, ``divi``/``remi``/``mini`` signed, ``divi`` rounding toward zero
or -inf, ``subi``, ``addi``); reversed (``st.grouped(G, reverse=True)``), the
column is ``(n1 - 1) - n`` (``subi`` of ``subi n1, 1``).  For ``G >= 1`` it maps ``[0, n0 * n1)`` one
to one onto ``[0, n0) x [0, n1)``: tile ``t`` lies in group
``g = t / width``, whose tiles are ``t = g * width + r`` with
``0 <= r < rows * n1`` (``rows = min(n0 - g G, G) >= 1`` because
``g G n1 <= t < n0 n1``); ``r -> (r % rows, r / rows)`` is a bijection of
``[0, rows * n1)`` onto ``[0, rows) x [0, n1)``, and the groups cover the
disjoint row ranges ``[g G, g G + rows)``.  Past ``n0 * n1`` neither holds
(``rows`` may be 0 or negative), so every user of a match must also know
``0 <= t < n0 * n1``.  Reversing the columns, ``n -> n1 - 1 - n``, is a
bijection of ``[0, n1)``, so the reversed order is one to one on the same range.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from safetile.dialects.cuda_tile.attributes import RoundingMode, Signedness
from safetile.dialects.cuda_tile.ops.arith import AddIOp, DivIOp, MinIOp, MulIOp, RemIOp, SubIOp
from safetile.dialects.cuda_tile.ops.control import ForOp
from safetile.dialects.cuda_tile.ops.misc import AssumeOp, GetTileBlockIdOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp


def strip_assumes(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and isinstance(value.op, AssumeOp):
        value = value.op.value
    return value


def constant_value(value: SSAValue) -> int | None:
    """The integer of a scalar ``constant``, None for anything else."""
    value = strip_assumes(value)
    if not (isinstance(value, OpResult) and isinstance(value.op, ConstantOp)):
        return None
    attr = value.op.value
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        return values[0] if len(values) == 1 and isinstance(values[0], int) else None
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def loop_product(value: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """``(n0, n1)`` when ``value`` is the index of a signed ``for`` that stops at
    ``muli n0, n1`` (whether it starts at a value >= 0 is the caller's to check)."""
    value = strip_assumes(value)
    if not isinstance(value, BlockArgument) or value.index != 0:
        return None
    loop = value.block.parent_op()
    if not isinstance(loop, ForOp) or loop.unsigned_cmp is not None:
        return None
    upper = _op(loop.upper_bound, MulIOp)
    return None if upper is None else (strip_assumes(upper.lhs), strip_assumes(upper.rhs))


def block_number(value: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """``(bid.x, bid.y, n0)`` when ``value`` is ``bid.x + bid.y * n0``: the block's
    number in launch order on an ``n0 x n1`` grid (x varies fastest)."""
    add = _op(value, AddIOp)
    if add is None:
        return None
    for x, rest in _either_order(add):
        product = _op(rest, MulIOp)
        if product is None or _result_of(x, GetTileBlockIdOp) != 0:
            continue
        for y, n0 in _either_order(product):
            if _result_of(y, GetTileBlockIdOp) == 1 and strip_assumes(y).owner is strip_assumes(x).owner:
                return strip_assumes(x), strip_assumes(y), strip_assumes(n0)
    return None


@dataclass(frozen=True)
class GroupedTile:
    """Tile ``(m, n)`` of tile number ``number`` in the grouped order of a
    ``rows x columns`` grid of tiles (``n0 x n1``), ``group`` rows at a time."""

    number: SSAValue
    rows: SSAValue
    columns: SSAValue
    group: int
    reverse: bool = False
    """The columns walked from the last (``n1 - 1 - n``): known only from the column."""


def grouped_row(value: SSAValue) -> GroupedTile | None:
    """The grouped tile whose row ``m = first + (t % width) % rows`` is ``value``."""
    add = _op(value, AddIOp)
    if add is None:
        return None
    for first, rest in _either_order(add):
        remainder = _op(rest, RemIOp)
        if remainder is not None and _signed(remainder):
            tile = _grouped(first, remainder.lhs, remainder.rhs)
            if tile is not None:
                return tile
    return None


def grouped_column(value: SSAValue) -> GroupedTile | None:
    """The grouped tile whose column ``n = (t % width) / rows`` is ``value``, or whose
    reversed column ``(n1 - 1) - n`` is (``reverse`` set)."""
    difference = _op(value, SubIOp)
    if difference is not None:
        last = _op(difference.lhs, SubIOp)
        tile = _forward_column(difference.rhs)
        if (last is not None and constant_value(last.rhs) == 1 and tile is not None
                and strip_assumes(last.lhs) is tile.columns):
            return replace(tile, reverse=True)
        return None
    return _forward_column(value)


def _forward_column(value: SSAValue) -> GroupedTile | None:
    """The grouped tile whose column ``n = (t % width) / rows`` is ``value``."""
    quotient = _op(value, DivIOp)
    if quotient is None or not _floor_division(quotient):
        return None
    rows = _op(quotient.rhs, MinIOp)
    if rows is None:
        return None
    for left, _ in _either_order(rows):
        difference = _op(left, SubIOp)
        if difference is not None:
            return _grouped(difference.rhs, quotient.lhs, quotient.rhs)
    return None


def _grouped(first: SSAValue, remainder: SSAValue, rows: SSAValue) -> GroupedTile | None:
    """The tile if ``first = (t / width) * G``, ``remainder = t % width`` with
    ``width = G * n1``, and ``rows = min(n0 - first, G)``, one constant ``G >= 1``."""
    group_of, group = _times_constant(first)
    quotient = _op(group_of, DivIOp)
    within = _op(remainder, RemIOp)
    if quotient is None or within is None or not (_floor_division(quotient) and _signed(within)):
        return None
    number, width = strip_assumes(quotient.lhs), strip_assumes(quotient.rhs)
    if strip_assumes(within.lhs) is not number or strip_assumes(within.rhs) is not width:
        return None
    columns, span_group = _times_constant(width)
    count = _op(rows, MinIOp)
    if count is None or not _signed(count):
        return None
    for left, limit in _either_order(count):
        difference = _op(left, SubIOp)
        if (
            difference is not None
            and strip_assumes(difference.rhs) is strip_assumes(first)
            and constant_value(limit) == span_group == group >= 1
        ):
            return GroupedTile(number, strip_assumes(difference.lhs), columns, group)
    return None


def _times_constant(value: SSAValue) -> tuple[SSAValue, int]:
    """``(x, c)`` when ``value`` is ``muli x, c`` with a constant ``c``; else ``(value, 1)``
    (``x * 1`` is ``x``, and the canonicalizer folds it so: the grouped order with
    ``G = 1`` must be recognized after the clean-ups too, where it is proved again)."""
    product = _op(value, MulIOp)
    if product is not None:
        for x, c in _either_order(product):
            if (k := constant_value(c)) is not None:
                return strip_assumes(x), k
    return strip_assumes(value), 1


def _op(value: SSAValue, op_type: type[Operation]) -> Operation | None:
    value = strip_assumes(value)
    if isinstance(value, OpResult) and isinstance(value.op, op_type):
        return value.op
    return None


def _result_of(value: SSAValue, op_type: type[Operation]) -> int | None:
    """Which result of an ``op_type`` op ``value`` is; None if it is none."""
    value = strip_assumes(value)
    if isinstance(value, OpResult) and isinstance(value.op, op_type):
        return value.index
    return None


def _either_order(op: Operation) -> tuple[tuple[SSAValue, SSAValue], tuple[SSAValue, SSAValue]]:
    a, b = op.operands
    return (a, b), (b, a)


def _signed(op: Operation) -> bool:
    return op.signedness.data == Signedness.SIGNED  # type: ignore[attr-defined]


def _floor_division(op: DivIOp) -> bool:
    """A signed ``divi`` that rounds down on operands >= 0."""
    return _signed(op) and op.rounding.data in (RoundingMode.ZERO, RoundingMode.NEGATIVE_INF)


__all__ = [
    "GroupedTile",
    "block_number",
    "constant_value",
    "grouped_column",
    "grouped_row",
    "loop_product",
    "strip_assumes",
]
