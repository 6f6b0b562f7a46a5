"""Which grid dimensions the data a kernel stores ignores.

Block ``(i, j)`` of a ``st.Mut`` output writes the output's tile ``(i, j)``.
If the stored data — and whether it is stored at all — does not depend on
block id ``j``, every block along ``j`` writes the same data into a
different tile.  With more than one block along ``j`` that is almost
always a kernel that reads one tile where it meant a whole row (a softmax
loading column tile 0 only, launched on a partition narrower than the row:
every column tile gets the first one's values).  Whether a dimension has
more than one block is known only at launch, so this analysis states the
facts and the runtime judges them against the grid.

Dependence is over-approximated, so a reported dimension is surely unread:
a value depends on the block ids its operands depend on (token operands
carry no data); a region op's results and block arguments depend on its
operands and on what its regions yield, continue and break with; a loop's
also on the conditions of the ``if``s inside it (they decide which values
leave it); and a store depends on what decides whether it runs: the
conditions of enclosing ``if``s and the bounds of enclosing loops.  Loads
depend on their indices, so reading the block's own tile of an output
(``z.load()``) reads every dimension of its index.

A store whose data depends on no grid dimension (a fill, ``z.store(0.0)``)
is reported for every dimension its index follows, with empty
``value_dims``: identical tiles are then what the kernel says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.ir import Attribute, Operation, SSAValue

from safetile.dialects.tile_safety import AccessMode
from safetile.dialects.cuda_tile.ops.control import BreakOp, ContinueOp, ForOp, IfOp, LoopOp, YieldOp
from safetile.dialects.cuda_tile.ops.memory.view_access import StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.misc import GetTileBlockIdOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.types import TokenType
from safetile.passes.analyses.partitions import access_of, arg_name, tensor_of

Dims = frozenset[int]
_NONE: Dims = frozenset()
_EXITS = (YieldOp, ContinueOp, BreakOp)


@dataclass(frozen=True)
class UnreadGridDim:
    """A store to an output whose tile follows grid dimension ``dim`` but whose data does not."""

    output: str
    """The output parameter (``z``)."""
    dim: int
    """The grid dimension: 0 (x), 1 (y) or 2 (z)."""
    location: Attribute
    """Where the store is: its ``op.location`` (the kernel line that stores)."""
    value_dims: Dims
    """The grid dimensions the stored data does depend on (empty for a fill)."""


class GridDependence:
    """For each SSA value of an entry, the tile block id dimensions it may depend on."""

    def __init__(self, entry: EntryOp):
        self._dims: dict[SSAValue, Dims] = {}
        ops = list(entry.walk())
        changed = True
        while changed:  # grows monotonically within 3 dimensions: a few rounds
            changed = False
            for op in ops:
                for value, dims in self._transfer(op):
                    known = self._dims.get(value, _NONE)
                    if not dims <= known:
                        self._dims[value] = known | dims
                        changed = True

    def of(self, value: SSAValue) -> Dims:
        """The grid dimensions ``value`` may depend on."""
        return self._dims.get(value, _NONE)

    def control(self, op: Operation) -> Dims:
        """The grid dimensions that decide whether (and how often) ``op`` runs."""
        dims: set[int] = set()
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, EntryOp):
            if isinstance(parent, IfOp):
                dims |= self.of(parent.condition)
            elif isinstance(parent, ForOp):
                dims |= self.of_all((parent.lower_bound, parent.upper_bound, parent.step))
            elif isinstance(parent, LoopOp):
                dims |= self._conditions_inside(parent)
            parent = parent.parent_op()
        return frozenset(dims)

    def _transfer(self, op: Operation) -> Iterable[tuple[SSAValue, Dims]]:
        if isinstance(op, GetTileBlockIdOp):
            return [(r, frozenset({d})) for d, r in enumerate(op.results)]
        dims = self.of_all(op.operands)
        if op.regions:
            dims |= self._leaving(op)
            if isinstance(op, LoopOp):
                dims |= self._conditions_inside(op)
            args = [a for region in op.regions for block in region.blocks for a in block.args]
            return [(v, dims) for v in (*op.results, *args)]
        return [(r, dims) for r in op.results]

    def of_all(self, values: Iterable[SSAValue]) -> Dims:
        """The grid dimensions any of ``values`` may depend on (tokens carry no data)."""
        dims: Dims = _NONE
        for v in values:
            if not isinstance(v.type, TokenType):
                dims |= self.of(v)
        return dims

    def _leaving(self, op: Operation) -> Dims:
        """What the values leaving ``op``'s regions (yield, continue, break) depend on."""
        dims: Dims = _NONE
        for inner in op.walk():
            if isinstance(inner, _EXITS) and inner is not op:
                dims |= self.of_all(inner.operands)
        return dims

    def _conditions_inside(self, loop: LoopOp) -> Dims:
        dims: Dims = _NONE
        for inner in loop.walk():
            if isinstance(inner, IfOp):
                dims |= self.of(inner.condition)
        return dims


def unread_grid_dims(entry: EntryOp) -> list[UnreadGridDim]:
    """Every store to a ``st.Mut``/``st.MutMapped`` output of ``entry`` whose tile index
    follows a grid dimension that its data (and its running) does not depend on.

    Reads the frontend's IR (the ``tile_safety.access`` marks name the outputs).
    """
    deps = GridDependence(entry)
    facts: list[UnreadGridDim] = []
    for op in entry.walk():
        if not isinstance(op, StoreViewTkoOp):
            continue
        tensor = tensor_of(op.view)
        if tensor is None or access_of(tensor) not in (AccessMode.MUT, AccessMode.MAPPED):
            continue
        picked = deps.of_all(op.index)
        data = deps.of(op.tile) | deps.control(op)
        facts += [UnreadGridDim(arg_name(tensor), d, op.location, data) for d in sorted(picked - data)]
    return facts


__all__ = ["GridDependence", "UnreadGridDim", "unread_grid_dims"]
