"""SSA dominance: every value is defined before each of its uses.

xDSL's verifier checks each op on its own and never asks whether an operand's
definition comes before the op, so IR with a use before its definition (from
text with a forward reference, or from a pass that moved an op too far) would
otherwise pass ``verify()`` and break later, in a pass or the interpreter.
``verify_dominance`` is MLIR's dominance check for Tile IR's regions, which
are single blocks with no branches between them:

* a value defined by an op dominates the ops after it in its block, and
  everything nested in those ops (never the regions of its own op);
* a block argument dominates everything in its block, nested ops included.

The bodies of ``builtin.module`` and ``cuda_tile.module`` are graph regions
(as in MLIR): their ops may name each other in any order.  The error is
MLIR's, at the using op, with its note at the definition.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

GRAPH_REGION_OPS = ("builtin.module", "cuda_tile.module")
"""Ops whose body is a graph region: no dominance inside it (MLIR's RegionKind::Graph)."""


class DominanceError(VerifyException):
    """``user``'s operand #``index`` is not defined before it.

    ``definer`` is the op whose location the note names (the defining op, or
    the op owning the block of a block argument); ``note`` is MLIR's note text.
    """

    def __init__(self, user: Operation, index: int, definer: Operation | None, note: str):
        super().__init__(f"operand #{index} does not dominate this use")
        self.user, self.index, self.definer, self.note = user, index, definer, note


def verify_dominance(root: Operation) -> None:
    """Raise ``DominanceError`` for the first use in ``root``'s regions (in
    program order) whose value does not dominate it."""
    positions: dict[Operation, int] = {}  # each op's index in its block, filled per block
    for op in root.walk():
        if op is root:
            continue
        for index, operand in enumerate(op.operands):
            if not _dominates(operand, op, positions):
                raise DominanceError(op, index, *_note(operand, op))


def _dominates(value: SSAValue, user: Operation, positions: dict[Operation, int]) -> bool:
    if isinstance(value, BlockArgument):
        return _is_in(user.parent_block(), value.block)
    if not isinstance(value, OpResult):
        return True  # a placeholder the parser left: reported by the parser
    definer = value.op
    block = definer.parent_block()
    ancestor = _ancestor_in(user, block)
    if ancestor is None or ancestor is definer:
        return False  # outside the definer's block, or inside the definer itself
    if block is None:
        return False  # a detached definer dominates nothing
    if _is_graph_region(block):
        return True
    if definer not in positions:
        positions.update((op, i) for i, op in enumerate(block.ops))
    return positions[definer] < positions[ancestor]


def _ancestor_in(op: Operation, block: Block | None) -> Operation | None:
    """``op`` or the op enclosing it that lies in ``block``; None if there is none."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def _is_in(block: Block | None, ancestor: Block) -> bool:
    """Whether ``block`` is ``ancestor`` or nested in one of its ops."""
    while block is not None:
        if block is ancestor:
            return True
        parent = block.parent_op()
        block = None if parent is None else parent.parent_block()
    return False


def _is_graph_region(block: Block) -> bool:
    parent = block.parent_op()
    return isinstance(parent, BuiltinModuleOp) or (
        parent is not None and parent.name in GRAPH_REGION_OPS
    )


def _note(value: SSAValue, user: Operation) -> tuple[Operation | None, str]:
    """MLIR's note: where the operand is defined, relative to the use."""
    use_region = user.parent_region()
    if isinstance(value, OpResult):
        definer = value.op
        if definer.parent_block() is user.parent_block():
            where = "op in the same block"
        elif definer.parent_region() is use_region:
            where = "op in the same region"
        elif _region_encloses(definer.parent_region(), use_region):
            where = "op in a parent region"
        elif _region_encloses(use_region, definer.parent_region()):
            where = "op in a child region"
        else:
            where = "op is neither in a parent nor in a child region"
        return definer, f"operand defined here ({where})"
    assert isinstance(value, BlockArgument)
    owner = value.block.parent_region()
    owner_op = value.block.parent_op()
    index = owner.blocks.index(value.block) if owner is not None else 0
    if owner is use_region:
        where = "in the same region"
    elif _region_encloses(owner, use_region):
        where = "in a parent region"
    elif _region_encloses(use_region, owner):
        where = "in a child region"
    else:
        where = "neither in a parent nor in a child region"
    return owner_op, f"operand defined as a block argument (block #{index} {where})"


def _region_encloses(outer: Region | None, inner: Region | None) -> bool:
    """Whether ``inner`` is nested (strictly) inside ``outer``."""
    if outer is None or inner is None:
        return False
    parent = inner.parent_op()
    region = None if parent is None else parent.parent_region()
    while region is not None:
        if region is outer:
            return True
        parent = region.parent_op()
        region = None if parent is None else parent.parent_region()
    return False
