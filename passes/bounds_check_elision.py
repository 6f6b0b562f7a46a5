"""``bounds-check-elision``: discharge partition index checks as early as possible."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import ComparisonPredicate, Signedness
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import ForOp, IfOp, LoopOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.types import PointerType
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.passes.analyses.intervals import (
    Extent,
    Interval,
    IntervalAnalysis,
    defined_outside,
    extent_of,
    strip_assumes,
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
        for entry in list(entries(op)):
            self._apply_entry(entry)

    def _apply_entry(self, entry: EntryOp) -> None:
        analysis = IntervalAnalysis(entry)
        unchecked = self.unchecked_accesses or tile_safety.UNCHECKED_ACCESSES in entry.attributes
        deny = self.deny_in_kernel_checks or tile_safety.DENY_IN_KERNEL_CHECKS in entry.attributes
        launch: list[tile_safety.LaunchCheckAttr] = []
        checks = [o for o in entry.walk() if isinstance(o, tile_safety.CheckIndexOp)]
        decided = {check: decide(analysis.interval(check.index),
                                 analysis.canonical(extent_of(check.view, check.dim.value.data)))
                   for check in ([] if unchecked else checks)}
        # Launch checks of accesses that run whenever the kernel does: a check of the same
        # sides elsewhere refuses no launch these would not.
        sure = {_sides(host) for check, (rung, host) in decided.items()
                if rung is Rung.LAUNCH and host is not None and not _under_if(check, entry)
                and not _may_skip(check, entry, analysis)}
        for check in checks:
            message = check.message.data
            if unchecked:
                rung, host = Rung.UNCHECKED, None
            else:
                rung, host = decided[check]
                if rung is Rung.LAUNCH and (not self.launch_checks or (
                        (_under_if(check, entry) or _may_skip(check, entry, analysis))
                        and (host is None or _sides(host) not in sure))):
                    # Under an ``if``, or in a loop that may run no trip, the access
                    # may never run: a launch check (blind to the condition) would
                    # refuse launches that are fine, unless an access that always
                    # runs has the same check.
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
    """The rung for ``0 <= index < extent``, and the launch check's sides if it takes that rung.

    A launch check needs a tight index (``Interval.tight``): its bound is an index the
    kernel computes, so the check refuses exactly the launches whose accesses would fail."""
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
    if lhs is None or rhs is None or not index.tight:
        return Rung.IN_KERNEL, None
    return Rung.LAUNCH, (lhs, rhs)


def _sides(host: tuple[tile_safety.TileBoundAttr, tile_safety.TileBoundAttr]) -> tuple[object, object]:
    """A launch check's condition, comparable with another's (the attributes compare by value)."""
    return host[0], host[1]


def _may_skip(check: tile_safety.CheckIndexOp, entry: EntryOp, analysis: IntervalAnalysis) -> bool:
    """Whether ``check`` sits in a ``for`` whose trip count depends on a scalar argument (which no
    launch check sees: ``for j in range(n)`` runs no trip for ``n <= 0``) while its index does not
    depend on that loop's index.  An index that does is covered by its interval (a tight ``for``
    index starts at ``<= 0``, so over a loop of no trip its bound is below any tile count).

    Loops bounded by shapes, tile counts and block ids are taken to run in some block (the kernels'
    row and tile loops: they run no trip only for an empty tensor or in blocks past the work,
    while another block runs them)."""
    scalars = _scalar_arguments(entry)
    parent = check.parent_op()
    while parent is not None and parent is not entry:
        if isinstance(parent, ForOp) and not runs_at_least_once(parent, analysis) \
                and any(_depends_on(bound, s) for bound in (parent.lower_bound, parent.upper_bound) for s in scalars) \
                and not _depends_on(check.index, parent.region.block.args[0]):
            return True
        parent = parent.parent_op()
    return False


def _scalar_arguments(entry: EntryOp) -> list[SSAValue]:
    """The entry's scalar arguments: its block arguments that are no pointer and no tensor's shape or
    stride (those are operands of a ``make_tensor_view``, through ``assume``s)."""
    of_views = {id(strip_assumes(v)) for op in entry.walk() if isinstance(op, MakeTensorViewOp) for v in op.operands}
    return [a for a in entry.body.block.args
            if id(a) not in of_views and not isinstance(getattr(a.type, "element_type", None), PointerType)]


def _depends_on(value: SSAValue, root: SSAValue) -> bool:
    """Whether ``value`` is computed from ``root`` (through the ops defining it)."""
    seen: set[int] = set()
    work = [value]
    while work:
        v = work.pop()
        if v is root:
            return True
        if id(v) in seen or not isinstance(v, OpResult):
            continue
        seen.add(id(v))
        work.extend(v.op.operands)
    return False


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
