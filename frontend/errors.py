"""Compile errors of the kernel language, pointing at the kernel's source.

Every error the frontend raises is a ``CompileError``: the place
(``file:line:col``), what is wrong, the offending source line with a caret
under the column, and one sentence on how to fix it::

    kernels.py:12:13: error: dtype mismatch: f32 + f16
        z.store(a + b)
                ^
    help: convert one side explicitly, e.g. b.astype(st.f32)

``Source`` is a parsed function's source text with its place in the file;
it turns an AST node into such an error, or into the ``FileLineColLoc`` the
IR carries for the ops the node made (``CompileError.at`` turns such a
location back into an error, for failures found in the IR).
"""

from __future__ import annotations

import ast
import functools
import linecache
import os
import traceback
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, LocationAttr, StringAttr


class CompileError(Exception):
    """A kernel that cannot be compiled; the message names the source line."""

    def __init__(
        self,
        message: str,
        file: str = "<unknown>",
        line: int = 0,
        column: int = 0,
        source_line: str = "",
        hint: str = "",
    ):
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line
        self.hint = hint
        self.notes: list[str] = []
        """Where the failing code was reached from (inlined call sites)."""
        super().__init__(message)

    @classmethod
    def at(cls, location: LocationAttr, message: str, hint: str = "") -> CompileError:
        """The error at an op's ``location`` (unplaced if it has none)."""
        if not isinstance(location, FileLineColLoc):
            return cls(message, hint=hint)
        file, line, col = location.filename.data, location.line.data, location.column.data
        return cls(message, file, line, col, source_line(file, line), hint)

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: error: {self.message}"
        if self.source_line:
            text += f"\n{self.source_line}\n{' ' * (self.column - 1)}^"
        if self.hint:
            text += f"\nhelp: {self.hint}"
        for note in self.notes:
            text += f"\nnote: {note}"
        return text


def portable_path(file: str) -> str:
    """``file`` relative to the working directory if it lies below it, else as given."""
    try:
        return _portable_path(file, os.getcwd())
    except OSError:  # no working directory (removed)
        return file


@functools.lru_cache(maxsize=256)
def _portable_path(file: str, cwd: str) -> str:
    """``portable_path`` from ``cwd``: remembered, because every op the frontend
    makes asks it (two path resolutions, a dozen system calls, each time)."""
    try:
        return os.path.relpath(file, cwd) if Path(file).resolve().is_relative_to(Path(cwd).resolve()) else file
    except (OSError, ValueError):
        return file


@functools.lru_cache(maxsize=4096)
def _location(file: str, line: int, col: int) -> FileLineColLoc:
    """One location per place, as MLIR uniques them: the lowering asks for the
    place of a node every time it enters it (tens of thousands a compile of a
    large kernel), and a new one builds and verifies three attributes."""
    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


def source_line(file: str, line: int) -> str:
    """Line ``line`` of ``file`` without its newline ("" if it cannot be read)."""
    return linecache.getline(file, line).rstrip("\n")


@dataclass(frozen=True)
class Source:
    """A function's source: its file, its first line and how it was dedented.

    AST nodes of ``tree`` count lines from 1 and columns from 0 in the
    dedented text; ``line_offset`` and ``indent`` map them back to the file.
    """

    file: str
    lines: tuple[str, ...]
    """The lines of the file (not just of the function)."""
    line_offset: int
    indent: int

    def place(self, node: ast.AST) -> tuple[int, int]:
        """1-based line and column of ``node`` in the file."""
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.indent + 1
        return line, col

    def error(self, node: ast.AST, message: str, hint: str = "") -> CompileError:
        line, col = self.place(node)
        text = self.lines[line - 1].rstrip("\n") if 0 < line <= len(self.lines) else ""
        return CompileError(message, self.file, line, col, text, hint)

    def location(self, node: ast.AST) -> FileLineColLoc:
        """Where ``node`` is, as the IR records it for the ops it makes.

        The file is relative to the working directory when it lies below it,
        so that a kernel compiled from a checkout's root gives the same IR,
        bytecode and cache key on every machine (cubins built ahead of time
        on one machine are found on another).
        """
        line, col = self.place(node)
        return _location(portable_path(self.file), line, col)

    def where(self, node: ast.AST) -> str:
        """``file:line:col`` of ``node``, for notes of compile errors."""
        line, col = self.place(node)
        return f"{portable_path(self.file)}:{line}:{col}"


def import_error(err: Exception, file: str | os.PathLike[str], what: str = "the file") -> CompileError:
    """``err``, raised while Python imported ``file`` (a syntax error, or an
    exception of its top-level code), as an error at its line in ``file``."""
    path = os.fspath(file)
    if isinstance(err, SyntaxError):
        line, column = err.lineno or 0, err.offset or 0
        message, hint = f"Python syntax error: {err.msg}", f"{what} must be valid Python"
    else:
        here = Path(path).resolve()
        frames = [f for f in traceback.extract_tb(err.__traceback__) if Path(f.filename).resolve() == here]
        line, column = (frames[-1].lineno or 0, (frames[-1].colno or 0) + 1) if frames else (0, 0)
        message = f"importing {what} raised {type(err).__name__}: {err}"
        hint = "fix the code this line runs at import"
        if isinstance(err, ImportError) and "relative import" in str(err):
            hint = "use an absolute import: the file is loaded as a top-level module, with its folder on sys.path"
    return CompileError(message, path, line, column, source_line(path, line) if line else "", hint)
