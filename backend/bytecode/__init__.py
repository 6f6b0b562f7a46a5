"""Tile IR bytecode: what ``tileiras`` reads (versions 13.1 to 13.5; 13.4 by default).

    from safetile.backend.bytecode import write_bytecode, read_bytecode
    data = write_bytecode(module, "13.4")          # bytes; same IR, same bytes
    module = read_bytecode(data)                   # a verified cuda_tile.module

``format`` is the container (header, sections, varints, errors), ``encodings``
the per-op/type/attribute layout, ``writer`` and ``reader`` the two
directions, ``constants`` and ``values`` the raw encodings of data.
"""

from __future__ import annotations

from dataclasses import dataclass

from safetile.dialects.cuda_tile.diagnostics import Diagnostic

from .format import (
    DEFAULT_VERSION,
    SUPPORTED_VERSIONS,
    BytecodeError,
    BytecodeReadError,
    BytecodeWriteError,
    Version,
)
from .reader import bytecode_version, read_bytecode
from .writer import write_bytecode

FILE_EXTENSIONS = ("tileirbc", "tilebc")
"""Extensions of bytecode files (cuTile and the tests use the first)."""


@dataclass(frozen=True)
class ByteOffsetDiagnostic(Diagnostic):
    """A bytecode error: ``line`` holds the byte offset; printed ``file:offset: error: ...``."""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message}"


def diagnostic(file: str, err: BytecodeReadError) -> ByteOffsetDiagnostic:
    return ByteOffsetDiagnostic(file, err.offset, 0, str(err).split(": ", 1)[1])


__all__ = [
    "DEFAULT_VERSION",
    "FILE_EXTENSIONS",
    "SUPPORTED_VERSIONS",
    "ByteOffsetDiagnostic",
    "BytecodeError",
    "BytecodeReadError",
    "BytecodeWriteError",
    "Version",
    "bytecode_version",
    "diagnostic",
    "read_bytecode",
    "write_bytecode",
]
