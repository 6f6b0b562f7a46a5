"""``bounds-check-elision``: discharge partition index checks as early as possible."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import ComparisonPredicate, Signedness
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import ForOp, IfOp, LoopOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.passes.analyses.intervals import (
    Extent,
    Interval,
    IntervalAnalysis,
    defined_outside,
    extent_of,
)
from safetile.passes.analyses.locations import OpDiagnostic, where


class Rung(Enum):
    """Where an obligation is discharged, cheapest first."""

    STATIC = "static"
    LAUNCH = "launch"
    IN_KERNEL = "in-kernel"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class BoundsCheckElision(ModulePass):
    """Discharge each tile_safety.check_index statically, at launch, or keep it hoisted in the kernel.

    Invariant established: every ``tile_safety.check_index %i, %v[d]`` left
    in the module is one whose obligations ``0 <= %i`` and
    ``%i < num_tiles(%v, d)`` could neither be proved from interval facts
    (``passes/analyses/intervals.py``: constants, tile block id < grid,
    ``for`` ranges, ``assume bounded``) nor reduced to a launch check; it
    sits in front of the outermost ``for``/``loop`` whose body does not
    define its operands (under ``if lb < ub`` when it leaves a ``for`` whose
    trip count is a runtime value: a zero-trip loop checks nothing).  Each check reduced to a launch check is gone from
    the kernel and its condition, over the tensor arguments' shapes
    (``#tile_safety.launch_check<"x row": ceil_div(x.shape[1], 64) - 1 <
    ceil_div(y.shape[0], 64)>``, with the access's location), is appended
    to the entry's ``tile_safety.launch_checks`` for the runtime to evaluate
    before the launch.

    Options: ``launch_checks=false`` skips the launch rung (a check that
    would take it stays in the kernel); ``deny_in_kernel_checks`` (or the
    entry attribute of that name) makes a check that stays in the kernel a
    compile error naming its access; ``unchecked_accesses`` (or the entry
    attribute) removes every check; ``report`` prints one line per check,
    ``<rung>: <where>: <message>`` (``where``: the access's location), on stderr.
    """

    name = "bounds-check-elision"

    report: bool = False
    launch_checks: bool = True
    deny_in_kernel_checks: bool = False
    unchecked_accesses: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in [o for o in op.walk() if isinstance(o, EntryOp)]:
            self._apply_entry(entry)

    def _apply_entry(self, entry: EntryOp) -> None:
        analysis = IntervalAnalysis(entry)
        unchecked = self.unchecked_accesses or tile_safety.UNCHECKED_ACCESSES in entry.attributes
        deny = self.deny_in_kernel_checks or tile_safety.DENY_IN_KERNEL_CHECKS in entry.attributes
        launch: list[tile_safety.LaunchCheckAttr] = []
        checks = [o for o in entry.walk() if isinstance(o, tile_safety.CheckIndexOp)]
        for check in checks:
            message = check.message.data
            if unchecked:
                rung, host = Rung.UNCHECKED, None
            else:
                rung, host = decide(analysis.interval(check.index),
                                  analysis.canonical(extent_of(check.view, check.dim.value.data)))
                if rung is Rung.LAUNCH and (not self.launch_checks or _under_if(check, entry)):
                    # Under an ``if`` the access may never run: a launch check
                    # (blind to the condition) would refuse launches that are fine.
                    rung = Rung.IN_KERNEL
            if self.report:
                print(f"{rung.value}: {where(check)}: {message}", file=sys.stderr)
            if rung is Rung.IN_KERNEL:
                if deny:
                    raise OpDiagnostic(
                        check,
                        f"{message}: this index check needs an in-kernel assert, but "
                        f"@{entry.sym_name.data} is compiled with deny_in_kernel_checks "
                        "(bound the index with a loop over num_tiles, the tile block id, or assume bounded)",
                    )
                hoist(check, analysis)
                continue
            if host is not None:
                launch.append(tile_safety.LaunchCheckAttr(message, *host, check.location))
            check.detach()
            check.erase()
        tile_safety.add_launch_checks(entry, launch)


def decide(
    index: Interval, extent: Extent | None
) -> tuple[Rung, tuple[tile_safety.TileBoundAttr, tile_safety.TileBoundAttr] | None]:
    """The rung for ``0 <= index < extent``, and the launch check's sides if it takes that rung."""
    if index.lo is None or index.lo < 0 or index.hi is None or extent is None:
        return Rung.IN_KERNEL, None
    hi = index.hi
    if hi.extent == extent and hi.offset <= -1:
        return Rung.STATIC, None  # floor((extent - k) / d) < extent for k >= 1, d >= 1
    if hi.extent == extent and hi.divisor == 1:
        # extent + offset < extent is false whenever the access runs (a
        # launch check would refuse even launches where it never runs, e.g.
        # an empty loop), so the assert decides.
        return Rung.IN_KERNEL, None
    bound, limit = hi.constant(), extent.constant()
    if bound is not None and limit is not None:
        if bound < limit:
            return Rung.STATIC, None
        return Rung.IN_KERNEL, None  # statically out of range: the assert reports it
    lhs, rhs = hi.host(), extent.host()
    if lhs is None or rhs is None:
        return Rung.IN_KERNEL, None
    return Rung.LAUNCH, (lhs, rhs)


def _under_if(op: Operation, entry: EntryOp) -> bool:
    parent = op.parent_op()
    while parent is not None and parent is not entry:
        if isinstance(parent, IfOp):
            return True
        parent = parent.parent_op()
    return False


def hoist(check: tile_safety.CheckIndexOp, analysis: IntervalAnalysis) -> None:
    """Move ``check`` in front of the outermost enclosing loop that does not define
    its operands.  Out of a loop that surely runs its body (a ``loop``; a ``for``
    with constant bounds ``lb < ub``) it moves as it is; out of a ``for`` whose
    trip count is a runtime value it moves under ``if lb < ub`` (the loop's own
    condition), so a zero-trip loop still checks nothing, and it goes no further
    out.  It is never dropped."""
    target: Operation | None = None
    guard: ForOp | None = None
    parent = check.parent_op()
    while isinstance(parent, ForOp | LoopOp) and all(defined_outside(v, parent) for v in check.operands):
        target = parent
        if not runs_at_least_once(parent, analysis):
            assert isinstance(parent, ForOp)  # a ``loop`` always runs its body
            guard = parent
            break
        parent = parent.parent_op()
    if target is None:
        return
    check.detach()
    block = target.parent_block()
    assert block is not None
    if guard is None:
        block.insert_op_before(check, target)
        return
    runs = CmpIOp(ComparisonPredicate.LESS_THAN, guard.lower_bound, guard.upper_bound, Signedness.SIGNED)
    guarded = IfOp(runs)
    runs.location = guarded.location = check.location
    guarded.then_region.block.insert_op_before(check, guarded.then_region.block.first_op)
    block.insert_ops_before([runs, guarded], target)


def runs_at_least_once(loop: ForOp | LoopOp, analysis: IntervalAnalysis) -> bool:
    if isinstance(loop, LoopOp):
        return True
    lb = analysis.constant(loop.lower_bound)
    ub = analysis.constant(loop.upper_bound)
    return lb is not None and ub is not None and lb < ub
