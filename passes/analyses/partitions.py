"""Facts about partition accesses: which tensor a view cuts, and which tile indices
only one tile block (or one loop iteration) produces.

Shared by ``partition-disjointness`` (a store's index must be one of these, or
two blocks may write one tile) and ``token-order`` (stores at such an index in a
loop write a different tile each iteration, so they need not be ordered with
each other).
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.arith import DivIOp, RemIOp
from safetile.dialects.cuda_tile.ops.control import ForOp
from safetile.dialects.cuda_tile.ops.memory import (
    GetIndexSpaceShapeOp,
    MakePartitionViewOp,
    MakeTensorViewOp,
)
from safetile.dialects.cuda_tile.ops.misc import GetNumTileBlocksOp, GetTileBlockIdOp
from safetile.passes.analyses.intervals import strip_assumes


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


def is_own_tile(indices: list[SSAValue]) -> bool:
    """The index is the tile block id ``(bid.x, bid.y, bid.z)`` cut to its rank, in order."""
    ids = [_result_of(v, GetTileBlockIdOp, d) for d, v in enumerate(indices)]
    return len(indices) <= 3 and all(ids) and len({id(o) for o in ids}) == 1


def mapped_iterator(indices: list[SSAValue], view: SSAValue) -> BlockArgument | None:
    """``t`` if the index into ``view`` is a mapped tile of ``for t in (bid.x to _, step nblocks.x)``.

    A mapped tile is ``t`` itself (1-d) or ``(t / n1, t % n1)`` with
    ``n1 = num_tiles(view, 1)`` (2-d).  Either is injective in ``t >= 0``, so
    distinct iterations of the loop address distinct tiles, and blocks,
    which start at distinct residues of ``nblocks.x``, never share a ``t``.
    """
    if len(indices) == 1:
        return _mapped_loop_variable(indices[0])
    if len(indices) != 2:
        return None
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


__all__ = ["access_of", "arg_name", "is_own_tile", "mapped_iterator", "tensor_of"]
