"""Names visible while a function body is lowered.

A ``Scope`` maps each local name to its current value (compile-time or
runtime, see ``frontend.types``).  Control flow works on snapshots:
``snapshot`` before a branch or a loop body, ``restore`` after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


RETURN_SLOT = "<return>"
"""Where a device function's ``return`` puts its value until the inlining ends."""


@dataclass
class Scope:
    """The local names of one function being lowered."""

    names: dict[str, object] = field(default_factory=dict)

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def __getitem__(self, name: str) -> object:
        return self.names[name]

    def __setitem__(self, name: str, value: object) -> None:
        self.names[name] = value

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def snapshot(self) -> dict[str, object]:
        return dict(self.names)

    def restore(self, snapshot: dict[str, object]) -> None:
        self.names = dict(snapshot)
