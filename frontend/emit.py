"""Where new operations go, and which source line each one came from.

The ``Builder`` appends ops at the end of the current block and stamps each
with the current source location (``FileLineColLoc`` of the Python node
being lowered, set by the lowerer's ``at_node``), as Triton's builder does.
Ops built with regions of their own (``if``, ``for``, ``reduce``...) pass
the stamp on to every op inside that has none yet.  Locations are IR data:
verifier failures, the safety passes, the interpreter's errors and the
device's assert messages all read them from ``op.location``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.dialects.builtin import LocationAttr, UnknownLoc
from xdsl.ir import Block, Operation

_Op = TypeVar("_Op", bound=Operation)


@dataclass
class Builder:
    """Appends operations to ``block``, each located at ``location``."""

    block: Block
    entry: Block = field(init=False)
    """The entry's body, where kernel-wide values are defined."""
    location: LocationAttr = field(default_factory=UnknownLoc)
    enclosing: list[Block] = field(default_factory=list)
    """The blocks ``at`` left for ``block``, outermost first: the blocks whose
    values the ops added now may use (regions are attached to their ops only
    once built, so the IR cannot tell yet)."""

    def __post_init__(self) -> None:
        self.entry = self.block

    def add(self, op: _Op) -> _Op:
        self.block.add_op(op)
        return self.stamp(op)

    def stamp(self, op: _Op) -> _Op:
        """Locate ``op`` (and the unlocated ops in its regions) at the current location."""
        op.location = self.location
        if op.regions:
            for inner in op.walk():
                if isinstance(inner.location, UnknownLoc):
                    inner.location = self.location
        return op

    @contextmanager
    def at(self, block: Block) -> Iterator[Block]:
        """Append to ``block`` inside the ``with``."""
        saved, self.block = self.block, block
        self.enclosing.append(saved)
        try:
            yield block
        finally:
            self.enclosing.pop()
            self.block = saved

    def reaches(self, block: Block | None) -> bool:
        """Whether values defined in ``block`` may be used by the ops added now."""
        return block is self.block or any(b is block for b in self.enclosing)

    @contextmanager
    def located(self, location: LocationAttr) -> Iterator[None]:
        """Locate the ops made inside the ``with`` at ``location``."""
        saved, self.location = self.location, location
        try:
            yield
        finally:
            self.location = saved
