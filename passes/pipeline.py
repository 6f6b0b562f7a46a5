"""``safetile-pipeline``: the default pass pipeline, defined here and nowhere else."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from safetile.passes.bounds_check_elision import BoundsCheckElision
from safetile.passes.grid_dependency import GridDependency
from safetile.passes.licm import LoopInvariantCodeMotion
from safetile.passes.lower_tile_safety import LowerTileSafety
from safetile.passes.partition_disjointness import PartitionDisjointness
from safetile.passes.token_order import TokenOrder


def safety_passes(launch_checks: bool = False, dependent_launch: bool = True) -> list[ModulePass]:
    """The safety steps, in order; they read the frontend's ``tile_safety`` facts.
    ``dependent_launch=False`` leaves out ``grid-dependency`` (the kernel then always
    starts after the one before it has finished)."""
    steps: list[ModulePass] = [
        # First: it only reads the IR, and refuses a racy kernel before any
        # work is spent on it (a racy store is named by its location).
        PartitionDisjointness(),
        # Threads tokens.  After the step above: it forks the stores that
        # step proved disjoint.  Before lower-tile-safety, which strips the
        # access attributes that tell mutable from shared tensors, and before
        # the clean-ups, which then see (and keep) the token chains.
        TokenOrder(),
    ]
    if dependent_launch:
        # After token-order, whose chains it roots at the wait: every access
        # then waits for the kernels before (what makes an early start safe).
        steps.append(GridDependency())
    return steps + [
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
        # Merges the repeated get_index_space_shape/constant ops the lowering
        # made (and equal make_token/join_tokens: equal tokens order the same).
        CommonSubexpressionElimination(),
        # After CSE, so that merged-away ops are dropped; before LICM, so that
        # only live ops are hoisted.  A load whose tile is unused stays while
        # its token orders a later access.
        DeadCodeElimination(),
        # Last: hoists what the steps above left loop-invariant (never
        # assert or memory ops: they have effects; a make_token or a
        # join_tokens of tokens from outside the loop may go, which keeps
        # their order: a token means only the operations it was made from).
        LoopInvariantCodeMotion(),
    ]


@dataclass(frozen=True)
class SafetilePipeline(ModulePass):
    """The default pipeline: prove disjointness, order memory, elide bounds checks, lower, clean up.

    Invariant established: the module is pure ``cuda_tile`` (that of
    ``lower-tile-safety``), every store to a mutable tensor has been proved
    disjoint across tile blocks (that of ``partition-disjointness``), the
    accesses to each mutable tensor are chained by tokens in program order
    (that of ``token-order``), every access is ordered after the entry's wait
    for the kernels before it (that of ``grid-dependency``), and only the bounds checks that could not be
    discharged statically are left, as asserts.  ``launch_checks`` lets
    bounds-check-elision hoist checks to the host; only for callers that
    evaluate them (the lowering strips the ``tile_safety.launch_checks``
    record).  ``dependent_launch=false`` leaves out ``grid-dependency`` (its
    ops need bytecode 13.4: for an older target).
    """

    name = "safetile-pipeline"

    launch_checks: bool = False
    dependent_launch: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for step in safety_passes(self.launch_checks, self.dependent_launch) + clean_up_passes():
            step.apply(ctx, op)
