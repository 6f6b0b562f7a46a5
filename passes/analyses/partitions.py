"""Facts about partition accesses: which tensor a view cuts, and which tile indices
only one tile block (or one loop iteration) produces.

Shared by ``partition-disjointness`` (a store's index must be one of these, or
two blocks may write one tile) and ``token-order`` (stores at such an index in a
loop write a different tile each iteration, so they need not be ordered with
each other).  Each such index follows a :class:`TileOrder`: the default one
(the tile block id; row-major tile numbers for a mapped output) or the
grouped order of ``index_math.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.arith import DivIOp, RemIOp
from safetile.dialects.cuda_tile.ops.control import ForOp
from safetile.dialects.cuda_tile.ops.memory.views import (
    GetIndexSpaceShapeOp,
    MakePartitionViewOp,
    MakeTensorViewOp,
)
from safetile.dialects.cuda_tile.ops.misc import GetNumTileBlocksOp, GetTileBlockIdOp
from safetile.dialects.cuda_tile.types import PartitionViewType
from safetile.passes.analyses.index_math import (
    GroupedTile,
    block_number,
    grouped_column,
    grouped_row,
    loop_product,
    strip_assumes,
)


def tensor_of(view: SSAValue) -> MakeTensorViewOp | None:
    """The ``make_tensor_view`` a partition view cuts; None for any other view."""
    if isinstance(view, OpResult) and isinstance(view.op, MakePartitionViewOp):
        tv = view.op.tensor_view
        if isinstance(tv, OpResult) and isinstance(tv.op, MakeTensorViewOp):
            return tv.op
    return None


def access_of(tensor: MakeTensorViewOp) -> tile_safety.AccessMode | None:
    """The frontend's ``tile_safety.access`` mode of a tensor; None if unmarked."""
    mode = tensor.attributes.get(tile_safety.ACCESS)
    return mode.data if isinstance(mode, tile_safety.AccessAttr) else None


def arg_name(tensor: MakeTensorViewOp) -> str:
    """The kernel parameter a tensor view was made from, ``?`` if unmarked."""
    name = tensor.attributes.get(tile_safety.ARG)
    return name.data if isinstance(name, StringAttr) else "?"


@dataclass(frozen=True)
class TileOrder:
    """How a tensor's tiles are dealt to tile blocks: the default order, or grouped by ``group`` rows.

    Every access to one tensor must follow one order: under two orders two
    blocks may own one tile."""

    group: int | None = None
    reverse: bool = False
    """The grouped order with its columns walked from the last (``st.grouped(G, reverse=True)``)."""

    def __str__(self) -> str:
        if self.group is None:
            return "the default tile order"
        return f"the grouped order st.grouped({self.group}{', reverse=True' if self.reverse else ''})"


def tile_order(indices: list[SSAValue], view: SSAValue, mode: tile_safety.AccessMode) -> TileOrder | None:
    """The order in which ``indices`` name a tile that only this tile block owns
    (of a tensor of access ``mode``), or None if they are not proved to."""
    if mode is tile_safety.AccessMode.MUT:
        if is_own_tile(indices):
            return TileOrder()
        tile = _grouped_over(indices, view)
        return None if tile is None or not _numbers_blocks(tile, view) else TileOrder(tile.group, tile.reverse)
    if mode is tile_safety.AccessMode.MAPPED and mapped_iterator(indices, view) is not None:
        tile = _grouped_over(indices, view)
        return TileOrder() if tile is None else TileOrder(tile.group, tile.reverse)
    return None


def is_own_tile(indices: list[SSAValue]) -> bool:
    """The index is the tile block id ``(bid.x, bid.y, bid.z)`` cut to its rank, in order."""
    ids = [_result_of(v, GetTileBlockIdOp, d) for d, v in enumerate(indices)]
    return len(indices) <= 3 and all(ids) and len({id(o) for o in ids}) == 1


def mapped_iterator(indices: list[SSAValue], view: SSAValue) -> BlockArgument | None:
    """``t`` if the index into ``view`` is a mapped tile of ``for t in (bid.x to _, step nblocks.x)``.

    A mapped tile is ``t`` itself (1-d), ``(t / n1, t % n1)`` with
    ``n1 = num_tiles(view, 1)`` (2-d), or the grouped tile of ``t`` over
    ``view``'s ``n0 x n1`` tiles when the loop stops at ``n0 * n1``.  Each is
    injective in ``t`` (the first two for ``t >= 0``, the grouped one on
    ``[0, n0 * n1)``), so distinct iterations of the loop address distinct
    tiles, and blocks, which start at distinct residues of ``nblocks.x``,
    never share a ``t``.
    """
    if len(indices) == 1:
        return _mapped_loop_variable(indices[0])
    if len(indices) != 2:
        return None
    grouped = _grouped_over(indices, view)
    if grouped is not None:
        t = _mapped_loop_variable(grouped.number)
        factors = loop_product(grouped.number)
        below_count = factors is not None and {id(f) for f in factors} == {id(grouped.rows), id(grouped.columns)}
        return t if below_count else None
    row, col = (strip_assumes(v) for v in indices)
    if not (isinstance(row, OpResult) and isinstance(row.op, DivIOp)):
        return None
    if not (isinstance(col, OpResult) and isinstance(col.op, RemIOp)):
        return None
    t = _mapped_loop_variable(row.op.lhs)
    if t is None or strip_assumes(col.op.lhs) is not t:
        return None
    n1 = [_result_of(d.rhs, GetIndexSpaceShapeOp, 1) for d in (row.op, col.op)]
    if all(isinstance(s, GetIndexSpaceShapeOp) and strip_assumes(s.src) is view for s in n1):
        return t
    return None


def _grouped_over(indices: list[SSAValue], view: SSAValue) -> GroupedTile | None:
    """The grouped tile ``(m, n)`` of ``indices`` over ``view``'s own ``n0 x n1``
    tiles (``num_tiles(view, 0)``, ``num_tiles(view, 1)``), its column forward or reversed; its
    tile number's range is unchecked."""
    if len(indices) != 2:
        return None
    row, tile = grouped_row(indices[0]), grouped_column(indices[1])
    if row is None or tile is None or replace(tile, reverse=False) != row:
        return None
    counts = (_result_of(tile.rows, GetIndexSpaceShapeOp, 0), _result_of(tile.columns, GetIndexSpaceShapeOp, 1))
    if all(isinstance(s, GetIndexSpaceShapeOp) and strip_assumes(s.src) is view for s in counts):
        return tile
    return None


def _numbers_blocks(tile: GroupedTile, view: SSAValue) -> bool:
    """The tile number is ``bid.x + bid.y * n0`` and ``view`` is its tensor's host
    partition: the runtime launches exactly its ``n0 x n1 (x 1)`` grid, so the
    number is one to one from the blocks onto ``[0, n0 * n1)``."""
    ids = block_number(tile.number)
    tensor = tensor_of(view)
    view_type = view.type
    return (
        ids is not None
        and ids[2] is tile.rows
        and tensor is not None
        and isinstance(view_type, PartitionViewType)
        and view_type.dim_map == tuple(range(len(view_type.tile_shape)))
        and tile_safety.partition_tiles(tensor) == view_type.tile_shape
    )


def _mapped_loop_variable(value: SSAValue) -> BlockArgument | None:
    """``value`` if it is ``t`` of ``for t in (bid.x to _, step nblocks.x)``."""
    value = strip_assumes(value)
    if not (isinstance(value, BlockArgument) and value.index == 0):
        return None
    loop = value.owner.parent_op()
    if not isinstance(loop, ForOp):
        return None
    starts_at_id = _result_of(loop.lower_bound, GetTileBlockIdOp, 0) is not None
    steps_by_grid = _result_of(loop.step, GetNumTileBlocksOp, 0) is not None
    return value if starts_at_id and steps_by_grid else None


def _result_of(value: SSAValue, op_type: type[Operation], index: int) -> Operation | None:
    value = strip_assumes(value)
    if isinstance(value, OpResult) and isinstance(value.op, op_type) and value.index == index:
        return value.op
    return None


__all__ = ["TileOrder", "access_of", "arg_name", "is_own_tile", "mapped_iterator", "tensor_of", "tile_order"]
