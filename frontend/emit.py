"""Where new operations go, and which source line each one came from.

The ``Builder`` appends ops at the end of the current block.  Every op is
remembered with the AST node (and ``Source``) being lowered when it was
made, so that a verifier failure in the finished IR is reported at the
kernel line that produced it, like any other ``CompileError``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.ir import Block, Operation

from .errors import Source

_Op = TypeVar("_Op", bound=Operation)


@dataclass
class Builder:
    """Appends operations to ``block`` and records their origin."""

    block: Block
    entry: Block = field(init=False)
    """The entry's body, where kernel-wide values are defined."""
    origins: dict[Operation, tuple[Source, ast.AST]] = field(default_factory=dict)
    source: Source | None = None
    node: ast.AST | None = None

    def __post_init__(self) -> None:
        self.entry = self.block

    def add(self, op: _Op) -> _Op:
        self.block.add_op(op)
        if self.source is not None and self.node is not None:
            self.origins[op] = (self.source, self.node)
        return op

    @contextmanager
    def at(self, block: Block) -> Iterator[Block]:
        """Append to ``block`` inside the ``with``."""
        saved, self.block = self.block, block
        try:
            yield block
        finally:
            self.block = saved

    @contextmanager
    def located(self, source: Source, node: ast.AST) -> Iterator[None]:
        """Attribute the ops made inside the ``with`` to ``node`` of ``source``."""
        saved = self.source, self.node
        self.source, self.node = source, node
        try:
            yield
        finally:
            self.source, self.node = saved
