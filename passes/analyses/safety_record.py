"""The safety record: the frontend's ``tile_safety`` facts, kept apart from the IR.

The safety passes trust the ``tile_safety`` facts the frontend writes (access
modes and host partitions of tensor parameters, ``unsafe`` marks, index
checks, ``unchecked_accesses``).  A pass that edits one of them could make an
unsafe kernel look safe, so the compile driver and ``tile-opt`` take a
:class:`SafetyRecord` of the IR *before* any user pass runs and hold every
later module against it:

* ``fact_signature`` is the set of facts in a module; a user pass that changes
  it (adds, removes or edits a fact) is refused (``passes_facts_unchanged``);
* the re-proof (``analyses/reproof.py``) reads the facts of the IR that runs
  from the record, never from that IR: which entry argument is which tensor
  and how it may be used, what the launch ABI makes of it, which operations
  came from ``with st.unsafe():`` blocks (by source location and op name: a
  copy of an unsafe op, e.g. by loop unrolling, stays in its island).

Nothing in the record can be written by a pass: it is plain Python data,
taken once from the frontend's IR.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.misc import AssumeOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.passes.analyses.index_math import strip_assumes

Place = tuple[str, int, int] | str
"""A source position ``(file, line, column)``, or the text of a location without one."""


def place(op: Operation) -> Place:
    """``op``'s source position (what identifies an op across passes that rebuild it)."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return str(loc)


def entry_argument(value: SSAValue, entry: EntryOp) -> int | None:
    """The number of the ``entry`` argument ``value`` is (after looking through ``assume``), else None."""
    value = strip_assumes(value)
    if isinstance(value, BlockArgument) and value.block is entry.body.block:
        return value.index
    return None


@dataclass(frozen=True)
class TensorRecord:
    """One tensor parameter as the frontend bound it (``frontend/abi.py``)."""

    name: str
    mode: tile_safety.AccessMode
    partition: tuple[int, ...] | None
    """The host partition's tile shape of an output; None for an input."""
    base: int
    """The entry argument of its base pointer."""
    view_type: Attribute
    """The ``tensor_view`` type: element type, static extents and strides."""
    dynamic: tuple[int | None, ...]
    """The entry argument of each dynamic shape and stride operand, in operand order."""


@dataclass(frozen=True)
class EntryRecord:
    """The facts of one entry."""

    symbol: str
    tensors: tuple[TensorRecord, ...]
    unsafe: frozenset[tuple[Place, str]]
    """``(place, op name)`` of every operation marked ``tile_safety.unsafe``."""
    argument_assumes: frozenset[tuple[int, Attribute]]
    """``(argument, predicate)`` of each ``assume`` the ABI puts on an entry argument."""
    unchecked_accesses: bool
    deny_in_kernel_checks: bool

    def tensor_at(self, base: int | None) -> TensorRecord | None:
        return next((t for t in self.tensors if t.base == base), None)

    def is_unsafe(self, op: Operation) -> bool:
        return (place(op), op.name) in self.unsafe


@dataclass(frozen=True)
class SafetyRecord:
    """The facts of every entry of a module, by entry name."""

    entries: dict[str, EntryRecord]
    signature: frozenset[tuple[object, ...]]

    @staticmethod
    def of(module: ModuleOp) -> SafetyRecord:
        """The record of ``module``, read before any user pass runs."""
        records = {e.sym_name.data: _entry_record(e) for e in entries(module)}
        return SafetyRecord(records, fact_signature(module))

    @property
    def has_facts(self) -> bool:
        """Whether the module had any ``tile_safety`` fact (a kernel's IR; hand-written Tile IR
        without them has nothing the safety passes proved, so nothing to re-prove)."""
        return bool(self.signature) or any(e.tensors for e in self.entries.values())


def _entry_record(entry: EntryOp) -> EntryRecord:
    tensors: list[TensorRecord] = []
    assumes: set[tuple[int, Attribute]] = set()
    unsafe: set[tuple[Place, str]] = set()
    for op in entry.walk():
        if tile_safety.UNSAFE in op.attributes:
            unsafe.add((place(op), op.name))
        if isinstance(op, AssumeOp) and tile_safety.UNSAFE not in op.attributes:
            arg = entry_argument(op.value, entry)
            if arg is not None:
                assumes.add((arg, op.predicate))
        if isinstance(op, MakeTensorViewOp):
            mode = op.attributes.get(tile_safety.ACCESS)
            base = entry_argument(op.base, entry)
            if isinstance(mode, tile_safety.AccessAttr) and base is not None:
                name = op.attributes.get(tile_safety.ARG)
                tensors.append(TensorRecord(
                    getattr(name, "data", "?"),
                    mode.data,
                    tile_safety.partition_tiles(op),
                    base,
                    op.result.type,
                    tuple(entry_argument(v, entry) for v in (*op.dynamic_shape, *op.dynamic_strides)),
                ))
    return EntryRecord(
        entry.sym_name.data,
        tuple(tensors),
        frozenset(unsafe),
        frozenset(assumes),
        tile_safety.UNCHECKED_ACCESSES in entry.attributes,
        tile_safety.DENY_IN_KERNEL_CHECKS in entry.attributes,
    )


def fact_signature(module: ModuleOp) -> frozenset[tuple[object, ...]]:
    """Every ``tile_safety`` fact in ``module``, each as a hashable tuple with its place:
    attributes by (place, op name, attribute name, value), index checks by (place,
    dimension, message).  Sets, not counts: a pass may copy an op with its facts
    (unroll a loop) or merge equal ones (CSE) without changing what they say."""
    facts: set[tuple[object, ...]] = set()
    for op in module.walk():
        if isinstance(op, tile_safety.CheckIndexOp):
            facts.add(("check_index", place(op), op.dim.value.data, op.message.data))
        for name, value in op.attributes.items():
            if tile_safety.is_safety_attribute(name):
                key = op.sym_name.data if isinstance(op, EntryOp) else place(op)
                facts.add((name, key, op.name, str(value)))
    return frozenset(facts)


def changed_facts(before: frozenset[tuple[object, ...]], after: frozenset[tuple[object, ...]]) -> str | None:
    """What a pass did to the facts (``before`` → ``after``), in words; None if nothing."""
    added, removed = after - before, before - after
    if not added and not removed:
        return None
    parts = [f"added {_fact(f)}" for f in sorted(added, key=repr)[:3]]
    parts += [f"removed {_fact(f)}" for f in sorted(removed, key=repr)[:3]]
    more = len(added) + len(removed) - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _fact(fact: tuple[object, ...]) -> str:
    kind, where = fact[0], fact[1]
    at = f"{where[0]}:{where[1]}:{where[2]}" if isinstance(where, tuple) else f"@{where}" if isinstance(where, str) and not where.startswith("loc") else str(where)
    if kind == "check_index":
        return f"the index check '{fact[3]}' (dimension {fact[2]}) at {at}"
    return f"'{kind}' = {fact[3]} on '{fact[2]}' at {at}"


__all__ = ["EntryRecord", "SafetyRecord", "TensorRecord", "changed_facts", "entry_argument", "fact_signature", "place"]
