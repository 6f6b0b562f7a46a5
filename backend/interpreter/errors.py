"""Errors the interpreter raises, each naming where in the launch it happened.

Every error raised while a tile block runs carries the kernel name, the tile
block id ``(x, y, z)`` and the operation (``op``, with ``describe_op``'s text
in the message: its source location when the IR has one, else its position in
the kernel).  With a location the message ends with the source line and a
caret under the column, as a compile error does::

    @add_64: tile block (1, 0, 0): 'store_view_tko' at k.py:12:5: data race on z[64]: ...
        z.store(t)
        ^

Errors found before any block runs (bad arguments or grid) have no block and
no op.
"""

from __future__ import annotations

import linecache

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

BlockId = tuple[int, int, int]


def describe_op(op: Operation, index: int | None = None) -> str:
    """``'store_view_tko' at kernel.py:12:5`` (or ``... (op #7)`` without a location)."""
    name = op.name.removeprefix("cuda_tile.")
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"'{name}' at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return f"'{name}'" if index is None else f"'{name}' (op #{index})"


def source_excerpt(op: Operation) -> str:
    """The source line of ``op``'s location with a caret under its column
    ("" without a location, or when the file cannot be read)."""
    loc = op.location
    if not isinstance(loc, FileLineColLoc):
        return ""
    text = linecache.getline(loc.filename.data, loc.line.data).rstrip("\n")
    if not text:
        return ""
    return f"\n{text}\n{' ' * (loc.column.data - 1)}^"


class InterpreterError(Exception):
    """Base of every error of a kernel run on the interpreter."""

    def __init__(
        self,
        message: str,
        *,
        kernel: str | None = None,
        block_id: BlockId | None = None,
        op: Operation | None = None,
        where: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.locate(kernel, block_id, op, where)

    def locate(
        self,
        kernel: str | None,
        block_id: BlockId | None,
        op: Operation | None,
        where: str | None,
    ) -> None:
        """Set where the error happened (the engine adds this to errors raised
        by an op's executor, which knows only what went wrong)."""
        self.kernel = kernel
        self.block_id = block_id
        self.op = op
        parts = [
            *([f"@{kernel}"] if kernel is not None else []),
            *([f"tile block {block_id}"] if block_id is not None else []),
            *([where] if where is not None else []),
        ]
        excerpt = source_excerpt(op) if op is not None else ""
        self.args = (": ".join([*parts, self.message]) + excerpt,)


class LaunchError(InterpreterError):
    """The launch itself is invalid: grid, argument count or argument types."""


class DeviceAssertError(InterpreterError):
    """A ``cuda_tile.assert`` failed; ``assert_message`` is the op's message."""

    def __init__(self, message: str, assert_message: str):
        super().__init__(message)
        self.assert_message = assert_message


class RaceError(InterpreterError):
    """Two tile blocks of one launch accessed the same element, one writing,
    without both being atomic."""


class OutOfRangeError(InterpreterError):
    """A view, ``extract`` or ``insert`` index outside its index space."""


class MemoryAccessError(InterpreterError):
    """A load, store or atomic outside every live buffer, misaligned, or a
    store to read-only memory."""


class UndefinedBehaviorError(InterpreterError):
    """An operation whose result Tile IR leaves undefined and that has no
    sensible value (integer division by zero)."""


class AssumptionError(InterpreterError):
    """An ``assume`` predicate that does not hold (only with ``check_assumes``)."""


class UnsupportedError(InterpreterError):
    """A construct the interpreter cannot execute (e.g. ``f4E2M1FN`` in memory)."""
