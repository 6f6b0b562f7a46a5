"""The re-proof: the safety properties checked again on the IR that runs.

The safety passes prove a kernel safe on the frontend's IR; every pass after
them (clean-ups, user passes) could undo what they proved.  ``reprove`` takes
the final, pure ``cuda_tile`` module and the :class:`SafetyRecord` of the
frontend's IR, puts the record's facts on the module for the time of the
proof (setting aside any fact found in it: none is trusted; the module is as
it was afterwards), and runs the same analyses again on the verified module
(the caller verifies it, dominance included):

1. **views as the launch ABI describes them** — every ``make_tensor_view``
   outside unsafe code is a tensor parameter's: its base pointer, type and
   dynamic shape and stride operands are the entry arguments the ABI gives
   (``frontend/abi.py``); no ``assume`` outside unsafe code but the ABI's own
   facts about entry arguments;
2. **one writer per tile, nothing written through a read-only view** —
   ``partition-disjointness`` itself; pointer accesses, view
   atomics and multimem operations only in unsafe code;
3. **every index in range** — each partition access index is proved by the
   interval analysis of ``bounds-check-elision`` (the same ``decide``), or
   covered by one of the variant's launch checks, or guarded by an in-kernel
   assert (``lower-tile-safety``'s) that runs before it; none of this with
   ``unchecked_accesses``;
4. **token order** — the accesses to each mutable tensor are ordered by its
   tokens (``analyses/token_chains.py``).

Unsafe code (the record's ``unsafe`` operations) is exempt from all but 3,
as it is from the safety passes.  ``reprove`` returns the violations; the
caller (the compile driver, ``tile-opt``) turns them into errors naming the
pass that ran last, or, for a pass the user trusts by name, into entries of
the unsafe report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, StringAttr, UnitAttr, i64
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import ComparisonPredicate
from safetile.dialects.cuda_tile.ops.arith import AndIOp
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import ForOp, IfOp
from safetile.dialects.cuda_tile.ops.memory import TokenOrderedOp
from safetile.dialects.cuda_tile.ops.memory.multimem import MultimemOp
from safetile.dialects.cuda_tile.ops.memory.pointers import AtomicCASTkoOp, AtomicRMWTkoOp, LoadPtrTkoOp, StorePtrTkoOp
from safetile.dialects.cuda_tile.ops.memory.view_access import AtomicRedViewTkoOp, LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import GetIndexSpaceShapeOp, MakePartitionViewOp, MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.misc import AssertOp, AssumeOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.passes.analyses.index_math import constant_value, strip_assumes
from safetile.passes.analyses.intervals import IntervalAnalysis, extent_of
from safetile.passes.analyses.locations import where
from safetile.passes.analyses.partitions import access_of, arg_name, tensor_of
from safetile.passes.analyses.safety_record import EntryRecord, SafetyRecord, entry_argument
from safetile.passes.analyses.token_chains import unordered_accesses
from safetile.passes.bounds_check_elision import Rung, decide
from safetile.passes.partition_disjointness import PartitionDisjointness

UNSAFE_ONLY = (LoadPtrTkoOp, StorePtrTkoOp, AtomicRMWTkoOp, AtomicCASTkoOp, AtomicRedViewTkoOp, MultimemOp)
"""Memory operations safe code never makes: raw pointer accesses, atomics, multimem."""


@dataclass(frozen=True)
class Violation:
    """A property the IR that runs does not have: which one, why, and the op (its location)."""

    property: str
    message: str
    op: Operation | None = None
    entry: str | None = None
    """The entry it is in (None: the module as a whole)."""

    @property
    def location(self) -> Attribute | None:
        return None if self.op is None else self.op.location

    def key(self) -> tuple[str, str, str]:
        """What identifies the violation across passes (the ops differ after each)."""
        return self.property, self.message, str(self.location)


def reprove(
    module: ModuleOp, record: SafetyRecord, launch_checks: Sequence[tile_safety.LaunchCheckAttr] = ()
) -> list[Violation]:
    """The safety violations of the verified ``module`` (pure ``cuda_tile``, what runs) against
    ``record`` (the frontend's facts), given the launch checks the runtime will evaluate; empty
    if it is proved safe."""
    violations: list[Violation] = []
    carried = {(c.lhs, c.rhs) for c in launch_checks}
    found_facts = _set_aside_facts(module)
    try:
        for entry in list(entries(module)):
            facts = record.entries.get(entry.sym_name.data)
            if facts is None:
                violations.append(Violation("entries as the frontend made them",
                                            f"entry @{entry.sym_name.data} is not one the frontend made", entry))
                continue
            found = _restore_facts(entry, facts) + _one_writer(entry)
            if not facts.unchecked_accesses:
                found += _indices_in_range(entry, facts, carried)
            found += _token_order(entry, facts)
            violations += [replace(v, entry=entry.sym_name.data) for v in found]
    finally:
        _set_aside_facts(module)
        for op, attributes in found_facts.items():
            op.attributes.update(attributes)
    return violations


def _set_aside_facts(module: ModuleOp) -> dict[Operation, dict[str, Attribute]]:
    """Remove every ``tile_safety`` attribute from ``module``; what was removed, by op."""
    removed: dict[Operation, dict[str, Attribute]] = {}
    for op in module.walk():
        names = [n for n in op.attributes if tile_safety.is_safety_attribute(n)]
        if names:
            removed[op] = {n: op.attributes.pop(n) for n in names}
    return removed


def _restore_facts(entry: EntryOp, facts: EntryRecord) -> list[Violation]:
    """Put the record's facts on ``entry`` (which carries none now); the views, assumes and
    unsafe-only operations that the record does not allow."""
    found: list[Violation] = []
    for op in entry.walk():
        if facts.is_unsafe(op):
            op.attributes[tile_safety.UNSAFE] = UnitAttr()
    if facts.unchecked_accesses:
        entry.attributes[tile_safety.UNCHECKED_ACCESSES] = UnitAttr()
    for op in entry.walk():
        if isinstance(op, tile_safety.CheckIndexOp):
            found.append(Violation("pure cuda_tile", "a tile_safety.check_index is left in the IR that runs", op))
        elif isinstance(op, MakeTensorViewOp):
            found += _restore_view(op, entry, facts)
        elif isinstance(op, AssumeOp) and tile_safety.UNSAFE not in op.attributes:
            arg = entry_argument(op.value, entry)
            if (arg, op.predicate) not in facts.argument_assumes:
                found.append(Violation(
                    "no unproved assumptions",
                    f"an 'assume {op.predicate}' outside unsafe code that the launch ABI does not make: the "
                    "proofs would take it as a fact (write assume_* hints in `with st.unsafe():`)", op))
        elif isinstance(op, UNSAFE_ONLY) and tile_safety.UNSAFE not in op.attributes:
            found.append(Violation(
                "memory accessed only through the tensors' views",
                f"'{op.name}' outside unsafe code: safe code reads and writes memory only through its "
                "tensor parameters' partition views", op))
    return found


def _restore_view(op: MakeTensorViewOp, entry: EntryOp, facts: EntryRecord) -> list[Violation]:
    if tile_safety.UNSAFE in op.attributes:
        return []
    tensor = facts.tensor_at(entry_argument(op.base, entry))
    if tensor is None:
        return [Violation("views as the launch ABI describes them",
                          "a tensor view whose base pointer is no tensor parameter's, outside unsafe code", op)]
    dynamic = tuple(entry_argument(v, entry) for v in (*op.dynamic_shape, *op.dynamic_strides))
    if op.result.type != tensor.view_type or dynamic != tensor.dynamic:
        return [Violation(
            "views as the launch ABI describes them",
            f"the view of '{tensor.name}' is {op.result.type} over entry arguments {list(dynamic)}, but the "
            f"launch ABI makes {tensor.view_type} over {list(tensor.dynamic)}: it would reach memory the "
            "launch does not own", op)]
    op.attributes[tile_safety.ACCESS] = tile_safety.AccessAttr(tensor.mode)
    op.attributes[tile_safety.ARG] = StringAttr(tensor.name)
    if tensor.partition is not None:
        op.attributes[tile_safety.PARTITION] = DenseArrayBase.from_list(i64, list(tensor.partition))
    return []


def _one_writer(entry: EntryOp) -> list[Violation]:
    """``partition-disjointness`` with the record's facts (it reads, never rewrites)."""
    return [Violation("one writer per tile; nothing written through a read-only view", err.message, err.op)
            for err in PartitionDisjointness().refusals(entry)]


def _indices_in_range(
    entry: EntryOp, facts: EntryRecord, carried: set[tuple[Attribute, Attribute]]
) -> list[Violation]:
    found: list[Violation] = []
    analysis = IntervalAnalysis(entry)
    for op in entry.walk():
        if not isinstance(op, LoadViewTkoOp | StoreViewTkoOp) or tile_safety.UNSAFE in op.attributes:
            continue
        view = op.view
        if not (isinstance(view, OpResult) and isinstance(view.op, MakePartitionViewOp)):
            if not (isinstance(view, OpResult) and tile_safety.UNSAFE in view.op.attributes):
                found.append(Violation("every index in range", "an access through a view that is no partition "
                                       "of a tensor parameter, outside unsafe code", op))
            continue
        for dim, index in enumerate(op.index):
            interval = analysis.interval(index)
            rung, host = decide(interval, analysis.canonical(extent_of(view, dim)))
            if rung is Rung.STATIC or (rung is Rung.LAUNCH and host in carried):
                continue
            needs_low = interval.lo is None or interval.lo < 0
            if _guarded(op, index, view, dim, needs_low):
                continue
            what = "store to" if isinstance(op, StoreViewTkoOp) else "load of"
            tensor = tensor_of(view)
            name = arg_name(tensor) if tensor is not None else "a view"
            found.append(Violation(
                "every index in range",
                f"the {what} '{name}' at tile index dimension {dim} is not proved in range: no static proof, "
                "no launch check of this variant and no in-kernel assert before it covers it", op))
    return found


def _guarded(access: Operation, index: SSAValue, view: SSAValue, dim: int, needs_low: bool) -> bool:
    """An ``assert`` that checks ``index`` against ``view``'s tile count along ``dim`` (and
    ``index >= 0`` if ``needs_low``) runs before ``access`` whenever it runs: earlier in a
    block around it, or (``bounds-check-elision``'s hoist out of a ``for``) under
    ``if lb < ub`` right before that ``for``."""
    current: Operation = access
    while not isinstance(current, EntryOp):
        block = current.parent_block()
        if block is None:
            return False
        for op in block.ops:
            if op is current:
                break
            if isinstance(op, AssertOp) and _checks(op, index, view, dim, needs_low):
                return True
            if (isinstance(current, ForOp) and isinstance(op, IfOp) and _tests_trip(op.condition, current)
                    and any(isinstance(a, AssertOp) and _checks(a, index, view, dim, needs_low)
                            for a in op.then_region.block.ops)):
                return True
        parent = current.parent_op()
        if parent is None:
            return False
        current = parent
    return False


def _tests_trip(condition: SSAValue, loop: ForOp) -> bool:
    """``condition`` is ``lb < ub`` of ``loop``: true exactly when its body runs."""
    op = condition.owner if isinstance(condition, OpResult) else None
    return (isinstance(op, CmpIOp) and op.comparison_predicate.data == ComparisonPredicate.LESS_THAN
            and op.lhs is loop.lower_bound and op.rhs is loop.upper_bound)


def _checks(assertion: AssertOp, index: SSAValue, view: SSAValue, dim: int, needs_low: bool) -> bool:
    """The assert's condition implies ``index < num_tiles(view, dim)`` (and ``index >= 0``)."""
    low = high = False
    index = strip_assumes(index)
    for fact in _conjuncts(assertion.condition):
        op = fact.owner if isinstance(fact, OpResult) else None
        if not isinstance(op, CmpIOp) or strip_assumes(op.lhs) is not index:
            continue
        predicate = op.comparison_predicate.data
        bound = constant_value(op.rhs)
        if predicate == ComparisonPredicate.GREATER_THAN_OR_EQUAL and bound is not None and bound >= 0:
            low = True
        elif predicate == ComparisonPredicate.GREATER_THAN and bound is not None and bound >= -1:
            low = True
        elif predicate == ComparisonPredicate.LESS_THAN and _tile_count(op.rhs, view, dim):
            high = True
    return high and (low or not needs_low)


def _conjuncts(value: SSAValue) -> list[SSAValue]:
    op = value.owner if isinstance(value, OpResult) else None
    if isinstance(op, AndIOp):
        return _conjuncts(op.lhs) + _conjuncts(op.rhs)
    return [value]


def _tile_count(value: SSAValue, view: SSAValue, dim: int) -> bool:
    value = strip_assumes(value)
    return (isinstance(value, OpResult) and isinstance(value.op, GetIndexSpaceShapeOp)
            and value.index == dim and strip_assumes(value.op.src) is strip_assumes(view))


def _token_order(entry: EntryOp, facts: EntryRecord) -> list[Violation]:
    def mutable_tensor(op: TokenOrderedOp) -> str | None:
        if not isinstance(op, LoadViewTkoOp | StoreViewTkoOp):
            return None
        tensor = tensor_of(op.view)
        if tensor is None or access_of(tensor) not in (tile_safety.AccessMode.MUT, tile_safety.AccessMode.MAPPED):
            return None
        return arg_name(tensor)

    found = []
    for pair in unordered_accesses(entry, mutable_tensor, lambda op: tile_safety.UNSAFE in op.attributes):
        when = "in the previous iteration" if pair.across_iterations else "before it"
        found.append(Violation(
            "accesses to each mutable tensor ordered by its tokens",
            f"this access to '{mutable_tensor(pair.later)}' is not ordered after the access {when} "
            f"(at {where(pair.earlier)}): its input token does not follow that access's result token, so "
            "the two may run in either order", pair.later))
    return found


__all__ = ["UNSAFE_ONLY", "Violation", "reprove"]
