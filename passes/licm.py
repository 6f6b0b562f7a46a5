"""``licm``: loop-invariant code motion for ``cuda_tile.for`` and ``cuda_tile.loop``.

Invariant established: no op left at the top level of a loop body is both
free of side effects, speculatable, and computed only from values defined
outside the loop; every such op has been moved in front of its loop.

xDSL's own ``licm`` only knows ``scf.for``; this pass reuses its legality
check (``can_be_hoisted``) and applies it to Tile IR's loops (and to
``scf.for``, so it can stand in for xDSL's pass under the same name).
Speculatability matters because a ``for`` may run zero times: ``divi``
(division by zero is undefined) is side-effect free but never hoisted.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.ir import Operation, Region
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free, is_speculatable
from xdsl.transforms.loop_invariant_code_motion import can_be_hoisted

from safetile.dialects.cuda_tile.ops.control import ForOp, LoopOp


def _loop_body(op: Operation) -> Region | None:
    if isinstance(op, ForOp | LoopOp):
        return op.region
    if isinstance(op, scf.ForOp):
        return op.body
    return None


def hoist_invariants(loop: Operation, body: Region) -> int:
    """Move the invariant ops of ``body`` in front of ``loop``; return how many."""
    worklist = deque(op for block in body.blocks for op in block.ops)
    moved = 0
    while worklist:
        op = worklist.popleft()
        if op.parent_region() is not body:
            continue  # already moved
        if not (is_side_effect_free(op) and is_speculatable(op) and can_be_hoisted(op, body)):
            continue
        op.detach()
        loop.parent_block().insert_op_before(op, loop)  # type: ignore[union-attr]
        moved += 1
        # Its users in the body may have become invariant too.
        worklist.extend(
            use.operation
            for result in op.results
            for use in result.uses
            if use.operation.parent_region() is body
        )
    return moved


@dataclass(frozen=True)
class LoopInvariantCodeMotion(ModulePass):
    """Hoist side-effect-free, speculatable, loop-invariant ops out of for/loop."""

    name = "licm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # Innermost loops first (a pre-order walk, reversed), so invariants
        # bubble out through every level.
        loops = [(o, body) for o in op.walk() if (body := _loop_body(o))]
        for loop, body in reversed(loops):
            hoist_invariants(loop, body)
