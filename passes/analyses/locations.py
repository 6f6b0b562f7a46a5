"""Where an op comes from, for the passes' diagnostics and reports.

Source positions are IR data (``op.location``, a ``FileLineColLoc`` the
frontend stamps on every op): messages say *what*, the location says
*where*.  IR written by hand has no locations; its ops are named by their
``entry`` instead.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from safetile.dialects.cuda_tile.ops.structure import EntryOp


def where(op: Operation) -> str:
    """``file:line:col`` of ``op``; else ``@entry`` of the entry holding it; else its name."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    parent: Operation | None = op
    while parent is not None and not isinstance(parent, EntryOp):
        parent = parent.parent_op()
    return f"@{parent.sym_name.data}" if parent is not None else f"'{op.name}'"


class OpDiagnostic(DiagnosticException):
    """A pass's error about one op, printed ``where: message``.

    ``op`` and ``message`` stay apart, so that a compiler front end can
    report the message at the op's source location (with the source line).
    """

    def __init__(self, op: Operation, message: str):
        super().__init__(f"{where(op)}: {message}")
        self.op = op
        self.message = message
