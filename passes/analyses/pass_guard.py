"""The guard every pass that is not safetile's own runs under: the JIT pipeline's and ``tile-opt``'s.

It holds the frontend's :class:`SafetyRecord` (taken before any pass runs)
and, after each pass, the module against it:

* while the module still carries ``tile_safety`` facts (before
  ``lower-tile-safety``), the pass must leave them as they are: the safety
  passes prove what the facts say, so a pass that adds, drops or edits one
  could make an unsafe kernel look safe;
* once the module is pure ``cuda_tile`` (what runs), it is proved again
  (``passes/analyses/reproof.py``).

A pass the user trusts by name is never refused: what it broke is kept as an
unsafe island (``islands``, which the unsafe report lists with the pass's
name).  safetile's own safety passes consume facts by design (they discharge
checks, record launch checks and strip the facts when they lower); after each
of them the guard takes the facts as they are (``accept``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.structure import entries
from safetile.passes.analyses.reproof import Violation, reprove
from safetile.passes.analyses.safety_record import SafetyRecord, changed_facts, fact_signature
from safetile.passes.pipeline import SafetilePipeline, safety_passes

FACTS = "the frontend's tile_safety facts"
"""The property a pass breaks by editing a fact."""

SAFETY_PASSES = frozenset({p.name for p in safety_passes()} | {SafetilePipeline.name})
"""safetile's own safety passes: they read, discharge and strip the facts (``accept`` after each)."""


@dataclass
class PassGuard:
    """The record of a module and what each pass since did to it."""

    record: SafetyRecord
    facts: frozenset[tuple[object, ...]]
    launch_checks: list[tile_safety.LaunchCheckAttr] = field(default_factory=list)
    """The launch checks bounds-check-elision recorded (read before the lowering strips them)."""
    islands: list[tuple[str, Violation]] = field(default_factory=list)
    """``(pass label, violation)`` for each property a trusted pass left unproved."""

    @staticmethod
    def of(module: ModuleOp) -> PassGuard:
        """A guard for ``module`` as it is now: before any user pass runs."""
        guard = PassGuard(SafetyRecord.of(module), frozenset())
        guard.accept(module)
        return guard

    def accept(self, module: ModuleOp) -> None:
        """Take ``module``'s facts as they are (after safetile's safety passes)."""
        self.facts = fact_signature(module)
        self.record_launch_checks(module)

    def record_launch_checks(self, module: ModuleOp) -> None:
        """Add the launch checks ``module`` carries now (after each safety pass: the
        lowering strips them, and a dropped launch check would be a dropped bounds check)."""
        for entry in entries(module):
            self.launch_checks += [c for c in tile_safety.launch_checks(entry) if c not in self.launch_checks]

    def check(self, module: ModuleOp, label: str, trusted: bool = False) -> Violation | None:
        """The first property the pass ``label`` just broke (None if none, or if it is
        trusted: then what it broke becomes an island)."""
        broken = self.violations(module)
        if trusted:
            self.islands += [(label, v) for v in broken]
            self.accept(module)
            return None
        return broken[0] if broken else None

    def violations(self, module: ModuleOp) -> list[Violation]:
        """What the verified ``module`` breaks that no trusted pass already left."""
        if not self.record.has_facts:
            return []  # hand-written IR without the frontend's facts: nothing was proved
        now = fact_signature(module)
        if now:
            changed = changed_facts(self.facts, now)
            return [] if changed is None else [Violation(FACTS, changed)]
        known = {v.key() for _, v in self.islands}
        return [v for v in reprove(module, self.record, self.launch_checks) if v.key() not in known]


__all__ = ["FACTS", "SAFETY_PASSES", "PassGuard"]
