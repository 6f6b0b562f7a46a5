"""``loop-split``: split a ``for`` where an ``if`` compares the induction variable
with a loop invariant, so that neither half branches.

NVIDIA's pass of the same name (``LoopSplit.cpp``)::

    for %i in (%lb to %ub, step %s) {          for %i in (%lb to min(%p, %ub), step %s) {
      %c = cmpi greater_than_or_equal %i, %n      <else branch>
      if %c { A } else { B }           ->      }
      ...                                      for %i in (max(%p, %lb) to %ub, step %s) {
    }                                            <then branch>
                                               }

The split point ``%p`` is ``%n`` (``+ 1`` for ``greater_than`` and
``less_than_or_equal``), rounded up to ``lb + k * step`` unless the step is
the constant 1.  Each half gets a copy of the body with the comparison
replaced by the constant it has there and each ``if`` on it (directly in the
loop) replaced by the branch taken; a ``continue`` in that branch ends the
copy.  The second half starts from the first half's results.

When it applies: the ``if``'s condition is a ``cmpi`` of the induction
variable (either side) with a value defined outside the loop, with an
ordering predicate and the loop's signedness (``for unsigned`` compares
unsigned); and splitting pays: ``split-threshold`` is 1 (the default), or a
branch of some ``if`` on that comparison holds at least ``split-threshold``
ops, or a load, store, mma, reduce, if or for.  A ``cuda_tile.loop_split =
N`` attribute on the ``if``, else its ``for``, else its ``entry``, overrides
the threshold; 0 turns splitting off there.

One split per loop per run (the first ``if``, innermost loops first), as
NVIDIA's pass.

Deliberate difference: a comparison with one of the loop's own block
arguments (a loop-carried value) is not split; NVIDIA's pass treats block
arguments as invariant.

Invariant established: every ``for`` split was replaced by two ``for``s that
compute the same values, with no ``if`` on the split comparison directly in
their bodies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from safetile.dialects.cuda_tile.attributes import (
    ComparisonPredicate,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from safetile.dialects.cuda_tile.ops._folding import is_splat
from safetile.dialects.cuda_tile.ops.arith import AddIOp, DivIOp, MaxIOp, MinIOp, MulIOp, SubIOp
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import ContinueOp, ForOp, IfOp, YieldOp
from safetile.dialects.cuda_tile.ops.structure import FunctionOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp
from safetile.dialects.cuda_tile.types import TileType

THRESHOLD_ATTR = "cuda_tile.loop_split"
"""The attribute (on an ``if``, ``for`` or ``entry``) that overrides ``split-threshold``."""

HEAVY_OPS = (
    "cuda_tile.load_ptr_tko",
    "cuda_tile.load_view_tko",
    "cuda_tile.store_ptr_tko",
    "cuda_tile.store_view_tko",
    "cuda_tile.mmaf",
    "cuda_tile.mmai",
    "cuda_tile.reduce",
    "cuda_tile.if",
    "cuda_tile.for",
)
"""Ops that make a branch worth a split whatever the threshold."""

_MIRRORED = {
    ComparisonPredicate.LESS_THAN: ComparisonPredicate.GREATER_THAN,
    ComparisonPredicate.LESS_THAN_OR_EQUAL: ComparisonPredicate.GREATER_THAN_OR_EQUAL,
    ComparisonPredicate.GREATER_THAN: ComparisonPredicate.LESS_THAN,
    ComparisonPredicate.GREATER_THAN_OR_EQUAL: ComparisonPredicate.LESS_THAN_OR_EQUAL,
}
"""``n < iv`` is ``iv > n``: the predicate with the induction variable on the left."""


@dataclass(frozen=True)
class Split:
    """What splitting ``loop`` at ``cmp`` needs."""

    loop: ForOp
    cmp: CmpIOp
    predicate: ComparisonPredicate
    """The comparison with the induction variable on the left."""
    bound: SSAValue
    ifs: frozenset[IfOp]
    """The ``if``s on ``cmp`` directly in the loop: each half keeps one branch."""
    keep_cmp: bool
    """Whether ``cmp`` has other uses (each half then defines it as a constant)."""

    @property
    def then_second(self) -> bool:
        """Whether the condition holds in the second half (``>``, ``>=``)."""
        return self.predicate in (
            ComparisonPredicate.GREATER_THAN,
            ComparisonPredicate.GREATER_THAN_OR_EQUAL,
        )


@dataclass(frozen=True)
class LoopSplit(ModulePass):
    """Split a for loop in two where an if compares the induction variable with an invariant."""

    name = "loop-split"

    split_threshold: int = 1
    """A branch must hold this many ops (or a heavy one) for its loop to be split; 0: never."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in [o for o in op.walk() if isinstance(o, FunctionOp)]:
            default = _threshold_attr(entry, self.split_threshold)
            # Innermost loops first (a post-order walk), as MLIR's walk.
            for loop in [o for o in entry.walk(region_first=True) if isinstance(o, ForOp)]:
                if loop.parent is None:
                    continue  # inside a loop already split (its copies were split before)
                split = _find_split(loop, _threshold_attr(loop, default))
                if split is not None:
                    _split(split)


def _threshold_attr(op: Operation, default: int) -> int:
    value = op.attributes.get(THRESHOLD_ATTR)
    return value.value.data if isinstance(value, IntegerAttr) else default


def _find_split(loop: ForOp, threshold: int) -> Split | None:
    """The first ``if`` in ``loop`` (post-order) whose condition splits it."""
    for op in loop.walk(region_first=True):
        if isinstance(op, IfOp):
            split = _split_at(loop, op, _threshold_attr(op, threshold))
            if split is not None:
                return split
    return None


def _split_at(loop: ForOp, if_op: IfOp, threshold: int) -> Split | None:
    if threshold == 0:
        return None
    cmp = if_op.condition.owner
    if not isinstance(cmp, CmpIOp):
        return None
    signedness = Signedness.UNSIGNED if loop.unsigned_cmp is not None else Signedness.SIGNED
    if cmp.signedness.data != signedness:
        return None
    predicate = cmp.comparison_predicate.data
    iv = loop.induction_var
    if cmp.lhs is iv:
        bound = cmp.rhs
    elif cmp.rhs is iv and predicate in _MIRRORED:
        bound, predicate = cmp.lhs, _MIRRORED[predicate]
    else:
        return None
    if predicate not in _MIRRORED or _defined_in(bound, loop):
        return None
    ifs: set[IfOp] = set()
    keep_cmp = profitable = False
    for use in cmp.result.uses:
        user = use.operation
        if isinstance(user, IfOp):
            profitable |= _pays(user, threshold)
            if user.parent_op() is loop:
                ifs.add(user)
                continue
        keep_cmp = True  # used elsewhere than by an if directly in the loop
    if not profitable:
        return None
    return Split(loop, cmp, predicate, bound, frozenset(ifs), keep_cmp)


def _defined_in(value: SSAValue, loop: ForOp) -> bool:
    """Whether ``value`` varies in ``loop``: defined in its body (or an
    argument of it, unlike NVIDIA's pass)."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    while block is not None:
        if block.parent_op() is loop:
            return True
        parent = block.parent_op()
        block = None if parent is None else parent.parent_block()
    return False


def _pays(if_op: IfOp, threshold: int) -> bool:
    if threshold == 1:
        return True
    sizes = []
    heavy = False
    for region in (if_op.then_region, if_op.else_region):
        ops = [op for block in region.blocks for op in block.ops]
        sizes.append(len(ops) - 1)  # the terminator does not count
        heavy |= any(op.name in HEAVY_OPS for op in ops)
    return heavy or any(size >= threshold for size in sizes)


def _binary(cls: type[Operation], lhs: SSAValue, rhs: SSAValue, **properties: Attribute) -> Operation:
    return cls.create(operands=[lhs, rhs], result_types=[lhs.type], properties=properties)


def _split(split: Split) -> None:
    loop = split.loop
    signed = SignednessAttr(
        Signedness.UNSIGNED if loop.unsigned_cmp is not None else Signedness.SIGNED
    )
    step, lower, upper = loop.step, loop.lower_bound, loop.upper_bound
    step_type = step.type
    assert isinstance(step_type, TileType)
    new: list[Operation] = []

    def emit(op: Operation) -> SSAValue:
        new.append(op)
        return op.results[0]

    point = split.bound
    if split.predicate in (ComparisonPredicate.GREATER_THAN, ComparisonPredicate.LESS_THAN_OR_EQUAL):
        point = emit(_binary(AddIOp, point, emit(ConstantOp.splat(step_type, 1))))
    if not is_splat(step, 1):
        # The second half must start on the loop's grid: lb + ceil((p - lb) / step) * step.
        steps = emit(
            _binary(
                DivIOp,
                emit(_binary(SubIOp, point, lower)),
                step,
                signedness=signed,
                rounding=RoundingModeAttr(RoundingMode.POSITIVE_INF),
            )
        )
        point = emit(_binary(AddIOp, lower, emit(_binary(MulIOp, steps, step))))
    first_end = emit(_binary(MinIOp, point, upper, signedness=signed))
    second_start = emit(_binary(MaxIOp, point, lower, signedness=signed))
    first = _copy(split, lower, first_end, loop.init_values, taken=not split.then_second)
    second = _copy(split, second_start, upper, first.results, taken=split.then_second)
    Rewriter.insert_op(new + [first], InsertPoint.before(loop))
    Rewriter.replace_op(loop, second)


def _copy(
    split: Split, lower: SSAValue, upper: SSAValue, inits: Sequence[SSAValue], taken: bool
) -> ForOp:
    """A copy of the loop over ``[lower, upper)`` in which the comparison is ``taken``."""
    loop = split.loop
    block = Block(arg_types=[arg.type for arg in loop.region.block.args])
    mapping: dict[SSAValue, SSAValue] = {}
    for old, arg in zip(loop.region.block.args, block.args):
        arg.name_hint = old.name_hint
        mapping[old] = arg
    for op in loop.region.block.ops:
        if op is split.cmp:
            if not split.keep_cmp:
                continue  # only the ifs on it used it
            known = ConstantOp.splat(TileType([], split.cmp.result.type.element_type), taken)
            block.add_op(known)
            mapping[split.cmp.result] = known.result
        elif op not in split.ifs:
            block.add_op(op.clone(mapping))
        elif _inline_branch(op, taken, block, mapping):
            break  # the branch ends in `continue`: the rest of the body is dead
    unsigned = loop.unsigned_cmp is not None
    copy = ForOp(lower, upper, loop.step, inits, Region(block), unsigned)
    copy.attributes |= loop.attributes
    return copy


def _inline_branch(
    if_op: IfOp, taken: bool, block: Block, mapping: dict[SSAValue, SSAValue]
) -> bool:
    """Copy the ops of ``if_op``'s taken branch into ``block``; its results are
    what the branch yields.  Return whether the branch ended in ``continue``."""
    region = if_op.then_region if taken else if_op.else_region
    for op in (op for b in region.blocks for op in b.ops):
        if isinstance(op, ContinueOp):
            block.add_op(op.clone(mapping))
            return True
        if isinstance(op, YieldOp):
            for result, value in zip(if_op.results, op.operands):
                mapping[result] = mapping.get(value, value)
        else:
            block.add_op(op.clone(mapping))
    return False
