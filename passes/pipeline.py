"""``safetile-pipeline``: the default pass pipeline, defined here and nowhere else."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from safetile.passes.bounds_check_elision import BoundsCheckElision
from safetile.passes.licm import LoopInvariantCodeMotion
from safetile.passes.lower_tile_safety import LowerTileSafety
from safetile.passes.partition_disjointness import PartitionDisjointness


def safety_passes(launch_checks: bool = False) -> list[ModulePass]:
    """The safety steps, in order; they read the frontend's ``tile_safety`` facts."""
    return [
        # First: it only reads the IR, and names a racy store's source line
        # through the check_index ops in front of it, which the next step removes.
        PartitionDisjointness(),
        # Before any clean-up: it needs the frontend's tile_safety attributes
        # (partition shapes, argument names) and the checks where the
        # frontend put them.  Launch checks are off unless the caller reads
        # the entry's tile_safety.launch_checks before the next step strips it
        # (a dropped launch check would be a dropped bounds check).
        BoundsCheckElision(launch_checks=launch_checks),
        # Last safety step: remaining checks become asserts and every
        # tile_safety op and attribute goes, so the module is pure cuda_tile.
        LowerTileSafety(),
    ]


def clean_up_passes() -> list[ModulePass]:
    """Generic clean-ups, run on pure ``cuda_tile`` (every op declares its effects)."""
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return [
        # Folds the asserts' comparisons and the frontend's constant index math.
        CanonicalizePass(),
        # Merges the repeated get_index_space_shape/constant ops the lowering made.
        CommonSubexpressionElimination(),
        # After CSE, so that merged-away ops are dropped; before LICM, so that
        # only live ops are hoisted.
        DeadCodeElimination(),
        # Last: hoists what the steps above left loop-invariant (never
        # assert or memory ops: they have effects).
        LoopInvariantCodeMotion(),
    ]


@dataclass(frozen=True)
class SafetilePipeline(ModulePass):
    """The default pipeline: prove disjointness, elide bounds checks, lower tile_safety, clean up.

    Invariant established: the module is pure ``cuda_tile`` (that of
    ``lower-tile-safety``), every store to a mutable tensor has been proved
    disjoint across tile blocks (that of ``partition-disjointness``), and
    only the bounds checks that could not be discharged statically are left,
    as asserts.  ``launch_checks`` lets bounds-check-elision hoist checks to
    the host; only for callers that evaluate them (the lowering strips the
    ``tile_safety.launch_checks`` record).
    """

    name = "safetile-pipeline"

    launch_checks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for step in safety_passes(self.launch_checks) + clean_up_passes():
            step.apply(ctx, op)
