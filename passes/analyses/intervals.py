"""Interval facts about scalar integer indices, with symbolic tile counts.

A bound is ``Bound(extent, offset, divisor)``: the number
``floor((extent + offset) / divisor)`` where ``extent`` is a partition
view's tile count along one dimension (``num_tiles``, an :class:`Extent`)
or absent (a plain constant; then the divisor is 1).  An
:class:`Interval` is a lower bound (a constant or unknown) and an upper
bound (a :class:`Bound` or unknown); both are inclusive.

Facts used, each sound for the IR the frontend makes:

* ``constant c`` lies in ``[c, c]``;
* ``get_tile_block_id`` result ``d`` lies in ``[0, grid_d - 1]`` where the
  grid is the index space of the ``st.Mut`` outputs (entry attributes
  ``tile_safety.partition`` and ``tile_safety.access<mut>`` on their
  ``make_tensor_view``): the runtime launches exactly that grid and refuses
  outputs whose grids differ (``runtime/launch.py``), so every such output's
  tile count along ``d`` is the same number (``IntervalAnalysis.canonical``);
  with none only ``0 <=`` is known (a ``st.MutMapped`` output's partition
  says nothing: it runs on any ``(n, 1, 1)``); ``get_num_tile_blocks`` is
  ``>= 1``;
* ``get_index_space_shape`` result ``d`` is the extent itself;
* a ``for`` induction variable with a step known ``>= 1`` (signed
  comparison) lies in ``[lo(lower_bound), hi(upper_bound) - 1]``;
* ``assume bounded<lb, ub>`` intersects its operand's interval;
* ``addi``/``subi`` with a constant operand shift the interval;
* ``remi x, c`` with ``x >= 0`` lies in ``[0, c - 1]`` for a constant
  ``c >= 1`` or a tile count ``c`` (``get_index_space_shape``; a zero count
  makes the ``remi`` undefined, so no run reaches a use with it);
* ``divi x, c`` with ``x >= 0``, a constant ``c >= 1`` and rounding toward
  zero or -inf lies in ``[floor(lo / c), floor(hi / c)]``;
* ``mini a, b`` (signed) lies in ``[min(lo a, lo b), min(hi a, hi b)]``
  (the upper bound where the two compare: constants, or one extent);
* a coordinate of the grouped tile order (``index_math.py``) of a tile
  number ``t`` with ``0 <= t < n0 * n1`` lies in ``[0, n0 - 1]`` (``m``) or
  ``[0, n1 - 1]`` (``n``), the order being one to one on that range; ``t``
  is known there when it is a ``for`` index from ``>= 0`` to ``muli n0, n1``,
  or ``bid.x + bid.y * n0`` with ``bid.x <= n0 - 1``, ``bid.y <= n1 - 1``
  (the launch grid of a host-partitioned ``n0 x n1`` output); the reversed
  column ``(n1 - 1) - n`` too (a bijection of ``[0, n1)``, so as tight);
* ``select cond, a, b`` is ``a`` or ``b`` where ``cond`` is a ``cmpi`` of a
  value against a constant that the value's interval decides (the Python
  ``%`` the frontend lowers to ``remi`` + ``select``), else the hull of
  both.

Index arithmetic is assumed not to wrap (indices are far below 2^31).

Tightness.  An interval is *tight* when its upper bound is reached: some run
of the value's definition computes exactly the bound whenever the kernel
runs.  Tile block ids, constants, shapes and tile counts are, and shifts,
floor division by a constant, a decided ``select`` and the walks above keep
it; it is lost where the index math folds or clamps: a remainder that may
wrap (``(pid + 4) % 3`` is at most 2, but reaches 2 only on a grid of two
blocks or more), a ``min``/``max`` of bounds that do not compare, an
undecided ``select``, an ``assume``'s own bound, a ``for`` index stepping by
more than one.  Only a tight bound may become a launch check: a check
stricter than every index the kernel computes refuses launches that are fine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import (
    BoundedAttr,
    ComparisonPredicate,
    RoundingMode,
    Signedness,
)
from safetile.dialects.cuda_tile.ops.arith import AddIOp, DivIOp, MaxIOp, MinIOp, RemIOp, SubIOp
from safetile.dialects.cuda_tile.ops.compare import CmpIOp, SelectOp
from safetile.dialects.cuda_tile.ops.control import ForOp
from safetile.dialects.cuda_tile.ops.memory.views import (
    GetIndexSpaceShapeOp,
    MakePartitionViewOp,
    MakeTensorViewOp,
)
from safetile.dialects.cuda_tile.ops.misc import AssumeOp, GetNumTileBlocksOp, GetTileBlockIdOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp
from safetile.dialects.cuda_tile.types import DYNAMIC, PartitionViewType, TensorViewType
from safetile.dialects.tile_safety import TileBoundAttr
from safetile.passes.analyses.index_math import (
    GroupedTile,
    block_number,
    constant_value,
    grouped_column,
    grouped_row,
    loop_product,
    strip_assumes,
)


@dataclass(frozen=True)
class Extent:
    """``ceil(size / tile)``: a tile count along one tensor dimension.

    Two extents are equal when their sizes are the same SSA value (after
    looking through ``assume``) or the same constant, with the same tile.
    """

    size: SSAValue | int
    tile: int
    tensor: str | None = field(default=None, compare=False)
    dim: int = field(default=0, compare=False)

    def constant(self) -> int | None:
        return -(-self.size // self.tile) if isinstance(self.size, int) else None

    def host(self) -> TileBoundAttr | None:
        """This count over the tensor arguments' shapes, for a launch check."""
        if isinstance(self.size, int):
            return TileBoundAttr.of(None, offset=-(-self.size // self.tile))
        if self.tensor is None:
            return None
        return TileBoundAttr.of(self.tensor, self.dim, self.tile)


@dataclass(frozen=True)
class Bound:
    """``floor((extent + offset) / divisor)``, or just ``offset`` without an extent."""

    extent: Extent | None
    offset: int
    divisor: int = 1

    def shifted(self, by: int) -> Bound:
        # floor((e + o) / d) + k == floor((e + o + k d) / d)
        return Bound(self.extent, self.offset + by * self.divisor, self.divisor)

    def divided(self, by: int) -> Bound:
        """This bound over ``by >= 1``, rounded down."""
        if self.extent is None:
            return Bound(None, self.offset // by)
        # floor(floor(n / d) / c) == floor(n / (d c))
        return Bound(self.extent, self.offset, self.divisor * by)

    def constant(self) -> int | None:
        """The number, if it does not depend on an argument's shape."""
        if self.extent is None:
            return self.offset
        count = self.extent.constant()
        return None if count is None else (count + self.offset) // self.divisor

    def host(self) -> TileBoundAttr | None:
        """This bound over the tensor arguments' shapes, for a launch check."""
        if self.extent is None:
            return TileBoundAttr.of(None, offset=self.offset)
        count = self.extent.host()
        if count is None:
            return None
        if not count.tensor.data:  # a constant extent
            return TileBoundAttr.of(None, offset=(count.offset.data + self.offset) // self.divisor)
        return TileBoundAttr.of(count.tensor.data, count.dim.data, count.tile.data, self.offset, self.divisor)


@dataclass(frozen=True)
class Interval:
    lo: int | None = None
    hi: Bound | None = None
    tight: bool = True
    """Whether ``hi`` is reached whenever the kernel runs (see the module doc)."""

    def shifted(self, by: int) -> Interval:
        return Interval(
            None if self.lo is None else self.lo + by, None if self.hi is None else self.hi.shifted(by), self.tight
        )

    def single(self) -> int | None:
        """The one value of a constant interval."""
        if self.hi is not None and self.hi.extent is None and self.lo == self.hi.offset:
            return self.lo
        return None


def extent_of(view: SSAValue, dim: int) -> Extent | None:
    """The tile count of a partition view along index dimension ``dim``."""
    if not (isinstance(view, OpResult) and isinstance(view.op, MakePartitionViewOp)):
        return None
    view_type = view.type
    assert isinstance(view_type, PartitionViewType)
    tensor_dim = view_type.dim_map[dim] if view_type.dim_map else dim
    return _tensor_extent(view.op.tensor_view, tensor_dim, view_type.tile_shape[dim])


def _tensor_extent(tensor_view: SSAValue, dim: int, tile: int) -> Extent | None:
    if not (isinstance(tensor_view, OpResult) and isinstance(tensor_view.op, MakeTensorViewOp)):
        return None
    make = tensor_view.op
    tv_type = make.result.type
    assert isinstance(tv_type, TensorViewType)
    name = make.attributes.get(tile_safety.ARG)
    tensor = name.data if isinstance(name, StringAttr) else None
    shape = tv_type.shape
    if shape[dim] != DYNAMIC:
        return Extent(shape[dim], tile, tensor, dim)
    dynamic_index = sum(d == DYNAMIC for d in shape[:dim])
    return Extent(strip_assumes(make.dynamic_shape[dynamic_index]), tile, tensor, dim)


def grid_extents(root: Operation) -> tuple[tuple[Extent, ...], tuple[Extent, ...], tuple[Extent, ...]]:
    """Per grid dimension, the tile count along it of every ``st.Mut`` output under ``root``
    (access ``mut``, host-partitioned), in order of appearance.  The runtime launches exactly
    their grid and refuses a launch whose ``st.Mut`` outputs' grids differ (``runtime/launch.py``),
    so all of them equal the grid whenever the kernel runs.  ``st.MutMapped`` outputs say
    nothing about the grid (any ``(n, 1, 1)``)."""
    dims: list[list[Extent]] = [[], [], []]
    for op in root.walk():
        if not isinstance(op, MakeTensorViewOp):
            continue
        access = op.attributes.get(tile_safety.ACCESS)
        tiles = tile_safety.partition_tiles(op)
        if tiles is None or not (isinstance(access, tile_safety.AccessAttr)
                                 and access.data == tile_safety.AccessMode.MUT):
            continue
        extents = [_tensor_extent(op.result, d, t) for d, t in enumerate(tiles)]
        # Dimensions past the output's rank have one block.
        for d, extent in enumerate((extents + [Extent(1, 1)] * 3)[:3]):
            if extent is not None:
                dims[d].append(extent)
    return tuple(tuple(d) for d in dims)  # type: ignore[return-value]


class IntervalAnalysis:
    """Intervals of scalar integer values in one entry, computed on demand.

    Tile counts that are the same grid dimension of two ``st.Mut`` outputs are one
    number at run time (``grid_extents``): ``canonical`` maps each to the first."""

    def __init__(self, entry: Operation):
        grid = grid_extents(entry)
        self.grid = tuple(d[0] if d else None for d in grid)
        self._same = {extent: d[0] for d in grid for extent in d}
        self._memo: dict[SSAValue, Interval] = {}

    def canonical(self, extent: Extent | None) -> Extent | None:
        """``extent``, or the grid extent it equals whenever the kernel runs."""
        return None if extent is None else self._same.get(extent, extent)

    def interval(self, value: SSAValue) -> Interval:
        if value not in self._memo:
            self._memo[value] = Interval()  # cycles (loop-carried values) are unknown
            self._memo[value] = self._compute(value)
        return self._memo[value]

    def constant(self, value: SSAValue) -> int | None:
        return self.interval(value).single()

    def decided(self, cond: SSAValue) -> bool | None:
        """The value of a ``cmpi x, c`` (signed, ``c`` constant) the interval of ``x`` decides."""
        if not (isinstance(cond, OpResult) and isinstance(cond.op, CmpIOp)):
            return None
        op = cond.op
        c = self.constant(op.rhs)
        if c is None or op.signedness.data != Signedness.SIGNED:
            return None
        x = self.interval(op.lhs)
        lo, hi = x.lo, (None if x.hi is None else x.hi.constant())
        predicate = op.comparison_predicate.data
        # x < c  <=>  x <= c - 1,  x > c  <=>  x >= c + 1
        if predicate in (ComparisonPredicate.LESS_THAN, ComparisonPredicate.LESS_THAN_OR_EQUAL):
            c -= predicate == ComparisonPredicate.LESS_THAN
            return False if lo is not None and lo > c else (True if hi is not None and hi <= c else None)
        if predicate in (ComparisonPredicate.GREATER_THAN, ComparisonPredicate.GREATER_THAN_OR_EQUAL):
            c += predicate == ComparisonPredicate.GREATER_THAN
            return True if lo is not None and lo >= c else (False if hi is not None and hi < c else None)
        return None

    def _compute(self, value: SSAValue) -> Interval:
        if isinstance(value, BlockArgument):
            return self._block_argument(value)
        assert isinstance(value, OpResult)
        op = value.op
        if isinstance(op, ConstantOp):
            c = constant_value(value)
            return Interval() if c is None else Interval(c, Bound(None, c))
        if isinstance(op, GetTileBlockIdOp):
            extent = self.grid[value.index]
            return Interval(0, None if extent is None else Bound(extent, -1))
        if isinstance(op, GetNumTileBlocksOp):
            return Interval(1, None)
        if isinstance(op, GetIndexSpaceShapeOp):
            extent = self.canonical(extent_of(op.src, value.index))
            return Interval(0, None if extent is None else Bound(extent, 0))
        if isinstance(op, AssumeOp):
            return self._assume(op)
        if isinstance(op, AddIOp) and (tile := grouped_row(value)) is not None:
            return self._grouped(tile, tile.rows)
        if isinstance(op, DivIOp | SubIOp) and (tile := grouped_column(value)) is not None:
            return self._grouped(tile, tile.columns)
        if isinstance(op, AddIOp | SubIOp):
            lhs, rhs = op.operands
            sign = 1 if isinstance(op, AddIOp) else -1
            if (c := self.constant(rhs)) is not None:
                return self.interval(lhs).shifted(sign * c)
            if sign == 1 and (c := self.constant(lhs)) is not None:
                return self.interval(rhs).shifted(c)
        if isinstance(op, RemIOp):
            return self._remainder(op)
        if isinstance(op, DivIOp):
            return self._quotient(op)
        if isinstance(op, MinIOp) and op.signedness.data == Signedness.SIGNED:
            return _minimum(self.interval(op.lhs), self.interval(op.rhs))
        if isinstance(op, MaxIOp) and op.signedness.data == Signedness.SIGNED:
            return _maximum(self.interval(op.lhs), self.interval(op.rhs))
        if isinstance(op, SelectOp):
            chosen = self.decided(op.cond)
            if chosen is not None:
                return self.interval(op.val_if_true if chosen else op.val_if_false)
            return _hull(self.interval(op.val_if_true), self.interval(op.val_if_false))
        return Interval()

    def _quotient(self, op: DivIOp) -> Interval:
        numerator = self.interval(op.lhs)
        if numerator.lo is None or numerator.lo < 0:
            return Interval()
        if op.rounding.data not in (RoundingMode.ZERO, RoundingMode.NEGATIVE_INF):
            return Interval()  # rounding up: not floor
        c = self.constant(op.rhs)
        if c is None:
            return self._row_of_product(op)
        if c < 1:
            return Interval()
        # floor is monotone: where the numerator reaches its bound, the quotient reaches its own
        return Interval(numerator.lo // c, None if numerator.hi is None else numerator.hi.divided(c), numerator.tight)

    def _row_of_product(self, op: DivIOp) -> Interval:
        """``t / n1`` for a ``for`` index ``t`` below ``n0 * n1``: in ``[0, n0)``.

        Where the body runs, ``0 <= t < n0 * n1`` makes ``n1 >= 1`` and
        ``floor(t / n1) <= n0 - 1`` (the row of tile ``t`` of an ``n0 x n1``
        grid of tiles, as ``tile_indices()`` walks a mapped partition)."""
        factors = loop_product(op.lhs)
        if factors is None:
            return Interval()
        divisor = strip_assumes(op.rhs)
        a, b = factors
        other = a if b == divisor else b if a == divisor else None
        if other is None:
            return Interval()
        bound = self.interval(other).hi
        return Interval(0, None if bound is None else bound.shifted(-1))

    def _grouped(self, tile: GroupedTile, count: SSAValue) -> Interval:
        """A coordinate of a grouped tile: in ``[0, count)`` (``n0`` for ``m``,
        ``n1`` for ``n``) where the tile number is known to lie in ``[0, n0 * n1)``."""
        if not self._numbers_tiles(tile):
            return Interval()
        bound = self.interval(count).hi
        return Interval(0, None if bound is None else bound.shifted(-1))  # the order is one to one

    def _numbers_tiles(self, tile: GroupedTile) -> bool:
        """``0 <= t < n0 * n1`` for the tile number ``t`` of ``tile``, with ``n0, n1 >= 0``:
        ``t`` is a ``for`` index from ``>= 0`` to ``n0 * n1``, or ``bid.x + bid.y * n0``
        with ``bid.x < n0`` and ``bid.y < n1`` (a launch grid of ``n0 x n1``)."""
        n0, n1 = tile.rows, tile.columns
        if not all((lo := self.interval(n).lo) is not None and lo >= 0 for n in (n0, n1)):
            return False
        if (factors := loop_product(tile.number)) is not None:
            lo = self.interval(tile.number).lo
            return lo is not None and lo >= 0 and {id(f) for f in factors} == {id(n0), id(n1)}
        ids = block_number(tile.number)
        if ids is None or ids[2] is not n0:
            return False
        return self._below(ids[0], n0) and self._below(ids[1], n1)

    def _below(self, index: SSAValue, count: SSAValue) -> bool:
        """``0 <= index <= count - 1``, the bounds known as the same symbolic bound."""
        iv, limit = self.interval(index), self.interval(count).hi
        return iv.lo is not None and iv.lo >= 0 and limit is not None and iv.hi == limit.shifted(-1)

    def _remainder(self, op: RemIOp) -> Interval:
        x = self.interval(op.lhs)
        lo = x.lo
        if lo is None or lo < 0:
            return Interval()
        divisor = strip_assumes(op.rhs)
        if (c := self.constant(divisor)) is not None:
            if c < 1:
                return Interval()
            hi = None if x.hi is None else x.hi.constant()
            if hi is not None and hi - lo < c and lo % c <= hi % c:
                # no wrap between lo and hi: x % c runs from lo % c to hi % c, reaching it with x
                return Interval(lo % c, Bound(None, hi % c), x.tight)
            return Interval(0, Bound(None, c - 1), False)  # reached only if x takes a value c - 1 mod c
        if isinstance(divisor, OpResult) and isinstance(divisor.op, GetIndexSpaceShapeOp):
            extent = self.canonical(extent_of(divisor.op.src, divisor.index))
            if extent is not None:
                return Interval(0, Bound(extent, -1))  # the column of a tile walk's tile number
        return Interval()

    def _block_argument(self, arg: BlockArgument) -> Interval:
        """A ``for`` index: ``[lo(lb), hi(ub) - 1]``.  Tight where the upper bound is and the last trip
        reaches ``ub - 1``: a step of 1, a tile walk (``range(b, n0 * n1, blocks)``: the blocks
        between them number every tile), or a grid-stride walk (``range(bid[d], ub,
        num_tile_blocks()[d])``: block ``(ub - 1) mod grid[d]`` takes ``ub - 1``).  Whether the loop
        runs at all is the launch check's other condition (``bounds_check_elision._may_skip``)."""
        loop = arg.block.parent_op()
        if not (isinstance(loop, ForOp) and arg.index == 0 and loop.unsigned_cmp is None):
            return Interval()
        step = self.interval(loop.step)
        if step.lo is None or step.lo < 1:
            return Interval()
        upper = self.interval(loop.upper_bound)
        tight = upper.tight and (self.constant(loop.step) == 1 or loop_product(loop.upper_bound) is not None
                                 or _grid_stride(loop))
        return Interval(self.interval(loop.lower_bound).lo, None if upper.hi is None else upper.hi.shifted(-1), tight)

    def _assume(self, op: AssumeOp) -> Interval:
        inner = self.interval(op.value)
        predicate = op.predicate
        if not isinstance(predicate, BoundedAttr):
            return inner
        lo = inner.lo
        if predicate.lb is not None:
            lo = predicate.lb if lo is None else max(lo, predicate.lb)
        hi, tight = inner.hi, inner.tight
        if predicate.ub is not None and (hi is None or (hi.extent is None and hi.offset > predicate.ub)):
            hi, tight = Bound(None, predicate.ub), False  # the user's bound: maybe never reached
        return Interval(lo, hi, tight)


def _grid_stride(loop: ForOp) -> bool:
    """Whether ``loop`` starts at block id ``d`` and steps by the grid's extent ``d``."""
    lb, step = strip_assumes(loop.lower_bound), strip_assumes(loop.step)
    return (isinstance(lb, OpResult) and isinstance(lb.op, GetTileBlockIdOp) and isinstance(step, OpResult)
            and isinstance(step.op, GetNumTileBlocksOp) and lb.index == step.index)


def _minimum(a: Interval, b: Interval) -> Interval:
    """The interval of ``min(x, y)`` for ``x`` in ``a`` and ``y`` in ``b``: the smaller upper bound
    where they compare.  A constant and a tile count do not: ``min(pid + 1, 1)`` is at most
    either, but its constant bound is reached only on a grid of two blocks, so it is not tight.
    (Two tile counts that do not compare keep the first, as tight as both: ``min(num_tiles(k),
    bm + 1)`` reaches ``num_tiles(k)`` on a grid at least that long; on a shorter one its launch
    check is stricter than the index, a limit of the ``lhs < rhs`` form of launch checks.)"""
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    if a.hi is None or b.hi is None:
        return Interval(lo, a.hi or b.hi, (a if b.hi is None else b).tight)
    constants = [bound.constant() is not None for bound in (a.hi, b.hi)]
    tight = a.tight and b.tight and constants[0] == constants[1]
    return Interval(lo, _lower_bound_of(a.hi, b.hi), tight)


def _maximum(a: Interval, b: Interval) -> Interval:
    """The interval of ``max(x, y)`` for ``x`` in ``a`` and ``y`` in ``b``: at least either's lower
    bound; at most the larger upper bound where they compare, reached where that one is reached."""
    known = [i.lo for i in (a, b) if i.lo is not None]
    lo = max(known) if known else None
    larger: Interval | None = None
    if a.hi is not None and b.hi is not None:
        ca, cb = a.hi.constant(), b.hi.constant()
        if ca is not None and cb is not None:
            larger = a if ca >= cb else b
        elif (a.hi.extent, a.hi.divisor) == (b.hi.extent, b.hi.divisor):
            larger = a if a.hi.offset >= b.hi.offset else b
    for one, other in ((a, b), (b, a)):  # max(x, c) is x where c <= lo(x)
        c = one.single()
        if larger is None and c is not None and other.lo is not None and c <= other.lo:
            larger = other
    if larger is None:
        return Interval(lo, None)
    return Interval(lo, larger.hi, larger.tight)


def _lower_bound_of(a: Bound, b: Bound) -> Bound:
    """The smaller of two bounds where they compare (either holds for the minimum)."""
    ca, cb = a.constant(), b.constant()
    if ca is not None and cb is not None:
        return a if ca <= cb else b
    if (a.extent, a.divisor) == (b.extent, b.divisor):
        return a if a.offset <= b.offset else b
    return a  # either bound holds for the minimum; keep the first


def _hull(a: Interval, b: Interval) -> Interval:
    """The smallest interval holding both (unknown where their bounds cannot be compared)."""
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    hi = None
    if a.hi is not None and b.hi is not None:
        ca, cb = a.hi.constant(), b.hi.constant()
        if ca is not None and cb is not None:
            hi = a.hi if ca >= cb else b.hi
        elif (a.hi.extent, a.hi.divisor) == (b.hi.extent, b.hi.divisor):
            hi = a.hi if a.hi.offset >= b.hi.offset else b.hi
    return Interval(lo, hi, False)  # which one a run takes is not known


def defined_outside(value: SSAValue, op: Operation) -> bool:
    """Whether ``value`` is defined outside ``op`` (so it dominates ``op``)."""
    owner = value.owner
    owner_op = owner.parent_op() if isinstance(owner, Block) else owner
    return owner_op is None or not op.is_ancestor(owner_op)


__all__ = [
    "Bound",
    "Extent",
    "Interval",
    "IntervalAnalysis",
    "defined_outside",
    "extent_of",
    "grid_extents",
    "strip_assumes",
]
