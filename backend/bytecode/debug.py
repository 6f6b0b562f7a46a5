"""The debug section: op locations and the ``#cuda_tile.di_*`` scopes they name.

Layout (NVIDIA/cuda-tile ``BytecodeWriter.cpp``, ``DebugInfoWriter``)::

    debug-section  functions varint, padding to 4, index-offset u32 * functions,
                   indices varint, padding to 8, index u64 * indices,
                   attributes varint, padding to 4, offset u32 * attributes, data
    attribute      tag varint, then by tag:
                   1 di_compile_unit  file
                   2 di_file          name string, directory string
                   3 di_lexical_block scope, file, line varint, column varint
                   4 di_loc           scope, filename string, line varint, column varint
                   5 di_subprogram    file, line, name string, linkageName string,
                                      compileUnit, scopeLine varint,
                                      [13.5+: flags varint]
                   6 call site        callee, caller

Attribute references are varints; 0 is the unknown location and attribute
``i`` of the table is ``i + 1``.  Each kernel with debug information has a
list of references: its own location first, then one per op in the order
the function section writes them (an op before the ops of its regions).  The
function entry's location index names that list (``i + 1``); 0 means the
kernel has none and all its ops are unknown.  Plain ``file:line:col``
locations are written as unknown (NVIDIA's rule): ``scoped_locations``
places them in the kernel's subprogram first.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from safetile.dialects.cuda_tile.debuginfo import (
    LOCAL_SCOPES,
    SUBPROGRAM_DECLARATION,
    DICompileUnitAttr,
    DIFileAttr,
    DILexicalBlockAttr,
    DILocAttr,
    DISubprogramAttr,
)

from .format import (
    V13_5,
    ByteReader,
    BytecodeReadError,
    BytecodeWriteError,
    ByteWriter,
    Version,
    read_table,
    write_table,
)

SUBPROGRAM_FLAGS = V13_5
"""From 13.5 a ``di_subprogram`` ends with a flags varint (docs/bytecode.md)."""

UNKNOWN = 0
"""The reserved reference of the unknown location (``DebugReserved::UnknownLoc``)."""


class DebugTag(IntEnum):
    UNKNOWN = 0
    COMPILE_UNIT = 1
    FILE = 2
    LEXICAL_BLOCK = 3
    LOC = 4
    SUBPROGRAM = 5
    CALL_SITE = 6


ENCODED = (DICompileUnitAttr, DIFileAttr, DILexicalBlockAttr, DILocAttr, DISubprogramAttr, CallSiteLoc)
"""What the table holds; any other location is written as unknown."""


def _dependencies(attr: Attribute) -> tuple[Attribute, ...]:
    """What ``attr`` refers to, in the order NVIDIA's writer registers it."""
    if isinstance(attr, DICompileUnitAttr):
        return (attr.file,)
    if isinstance(attr, DILexicalBlockAttr):
        return (attr.scope, attr.file)
    if isinstance(attr, DILocAttr):
        return (attr.scope,)
    if isinstance(attr, DISubprogramAttr):
        return (attr.file, attr.compile_unit)
    if isinstance(attr, CallSiteLoc):
        return (attr.callee, attr.caller)
    return ()


class DebugSectionWriter:
    """Collects kernels' location lists and the attribute table, then encodes them.

    ``string`` interns a string in the file's string table; the section's
    strings are interned when it is encoded (after every op's), as NVIDIA's
    writer does.
    """

    def __init__(self, string: Callable[[str], int], version: Version):
        self.string = string
        self.version = version
        self.table: list[Attribute] = []
        self.refs: dict[Attribute, int] = {}
        self.lists: list[list[int]] = []

    def function(self, location: Attribute) -> int:
        """Start a kernel located at ``location``; its location index (0: none)."""
        if not isinstance(location, ENCODED):
            return UNKNOWN
        self.lists.append([])
        index = len(self.lists)
        self.add(index, location)
        return index

    def add(self, function: int, location: Attribute) -> None:
        """The next op of kernel ``function`` is at ``location``."""
        if function != UNKNOWN:
            self.lists[function - 1].append(self.ref(location))

    def ref(self, attr: Attribute) -> int:
        if attr in self.refs:
            return self.refs[attr]
        if not isinstance(attr, ENCODED):
            return UNKNOWN
        for dependency in _dependencies(attr):
            self.ref(dependency)
        self.table.append(attr)
        self.refs[attr] = len(self.table)
        return self.refs[attr]

    def payload(self) -> bytes | None:
        """The section's bytes, or None if no kernel has debug information."""
        if not self.lists and not self.table:
            return None
        out = ByteWriter()
        out.varint(len(self.lists))
        out.align(4)
        running = 0
        for refs in self.lists:
            out.le(running, 4)
            running += len(refs)
        out.varint(running)
        out.align(8)
        for refs in self.lists:
            for ref in refs:
                out.le(ref, 8)
        write_table(out, [self.encode(attr) for attr in self.table], 4)
        return bytes(out.data)

    def encode(self, attr: Attribute) -> bytes:
        out = ByteWriter()
        if isinstance(attr, DICompileUnitAttr):
            out.varint(DebugTag.COMPILE_UNIT)
            out.varint(self.ref(attr.file))
        elif isinstance(attr, DIFileAttr):
            out.varint(DebugTag.FILE)
            out.varint(self.string(attr.file_name.data))
            out.varint(self.string(attr.directory.data))
        elif isinstance(attr, DILexicalBlockAttr):
            out.varint(DebugTag.LEXICAL_BLOCK)
            out.varint(self.ref(attr.scope))
            out.varint(self.ref(attr.file))
            out.varint(attr.line.data)
            out.varint(attr.column.data)
        elif isinstance(attr, DILocAttr):
            loc = attr.source_loc
            out.varint(DebugTag.LOC)
            out.varint(self.ref(attr.scope))
            out.varint(self.string(loc.filename.data))
            out.varint(loc.line.data)
            out.varint(loc.column.data)
        elif isinstance(attr, DISubprogramAttr):
            out.varint(DebugTag.SUBPROGRAM)
            out.varint(self.ref(attr.file))
            out.varint(attr.line.data)
            out.varint(self.string(attr.sub_name.data))
            out.varint(self.string(attr.linkage_name.data))
            out.varint(self.ref(attr.compile_unit))
            out.varint(attr.scope_line.data)
            if self.version >= SUBPROGRAM_FLAGS:
                out.varint(attr.flags.data)
            elif attr.declaration:
                raise BytecodeWriteError(
                    f"di_subprogram flags (declaration) require bytecode version "
                    f"{SUBPROGRAM_FLAGS} (they were introduced in {SUBPROGRAM_FLAGS}); "
                    f"the target version is {self.version}"
                )
        else:
            assert isinstance(attr, CallSiteLoc)
            out.varint(DebugTag.CALL_SITE)
            out.varint(self.ref(attr.callee))
            out.varint(self.ref(attr.caller))
        return bytes(out.data)


class DebugSection:
    """A read debug section: each kernel's locations, decoded on demand."""

    def __init__(self, r: ByteReader | None, strings: list[str], version: Version):
        self.strings = strings
        self.version = version
        self.offsets: list[int] = []
        self.refs: list[int] = []
        self.entries: list[ByteReader] = []
        self.cache: dict[int, Attribute] = {}
        self.decoding: set[int] = set()
        if r is None:
            return
        n = r.count("number of kernels with debug info", 4)
        r.skip_padding(4, "debug info index offsets")
        self.offsets = [r.le(4, "debug info index offset") for _ in range(n)]
        at = r.pos
        total = r.count("number of debug info indices", 8)
        r.skip_padding(8, "debug info indices")
        self.refs = [r.le(8, "debug info index") for _ in range(total)]
        for i, offset in enumerate(self.offsets):
            end = self.offsets[i + 1] if i + 1 < n else total
            if not offset <= end <= total:
                raise BytecodeReadError(
                    at, "debug info index offsets in order", f"kernel {i} spans [{offset}, {end})"
                )
        self.entries = read_table(r, 4, "debug info attribute")

    @property
    def functions(self) -> int:
        return len(self.offsets)

    def location_refs(self, function: int) -> list[int]:
        """The references of kernel ``function`` (its location index), in write order."""
        i = function - 1
        end = self.offsets[i + 1] if i + 1 < len(self.offsets) else len(self.refs)
        return self.refs[self.offsets[i] : end]

    def attr(self, ref: int, at: int) -> Attribute:
        """The attribute reference ``ref`` (read at offset ``at``) names."""
        if ref == UNKNOWN:
            return UnknownLoc()
        i = ref - 1
        if i >= len(self.entries):
            raise BytecodeReadError(
                at,
                "a debug info attribute index",
                f"index {ref} out of range (table has {len(self.entries)})",
            )
        if i in self.cache:
            return self.cache[i]
        entry = self.entries[i]
        if i in self.decoding:
            raise BytecodeReadError(entry.pos, "a debug info attribute that does not contain itself")
        self.decoding.add(i)
        reader = ByteReader(entry.data, entry.pos, entry.end)
        try:
            attr = self.decode(reader)
            attr.verify()
        except VerifyException as err:
            raise BytecodeReadError(entry.pos, "a valid debug info attribute", str(err)) from None
        finally:
            self.decoding.discard(i)
        reader.expect_end(f"debug info attribute {i}")
        self.cache[i] = attr
        return attr

    def decode(self, r: ByteReader) -> Attribute:
        at = r.pos
        tag = r.varint("a debug info tag")
        if tag == DebugTag.UNKNOWN:
            return UnknownLoc()
        if tag == DebugTag.COMPILE_UNIT:
            return DICompileUnitAttr(self.ref(r, DIFileAttr, "file"))
        if tag == DebugTag.FILE:
            return DIFileAttr(self.string(r, "file name"), self.string(r, "directory"))
        if tag == DebugTag.LEXICAL_BLOCK:
            scope = self.ref(r, LOCAL_SCOPES, "lexical block scope")
            file = self.ref(r, DIFileAttr, "file")
            return DILexicalBlockAttr(scope, file, self.number(r, "line"), self.number(r, "column"))
        if tag == DebugTag.LOC:
            scope = self.ref(r, LOCAL_SCOPES, "location scope")
            name = self.string(r, "file name")
            line, column = self.number(r, "line"), self.number(r, "column")
            return DILocAttr(FileLineColLoc(name, line, column), scope)
        if tag == DebugTag.SUBPROGRAM:
            file = self.ref(r, DIFileAttr, "file")
            line = self.number(r, "line")
            name, linkage = self.string(r, "name"), self.string(r, "linkage name")
            unit = self.ref(r, DICompileUnitAttr, "compile unit")
            scope_line = self.number(r, "scope line")
            flags = 0
            if self.version >= SUBPROGRAM_FLAGS:
                at = r.pos
                flags = r.varint("di_subprogram flags")
                if flags & ~SUBPROGRAM_DECLARATION:
                    raise r.error("di_subprogram flags 0 or 1 (declaration)", f"got {flags:#x}", at)
            return DISubprogramAttr(file, line, name, linkage, unit, scope_line, flags)
        if tag == DebugTag.CALL_SITE:
            callee = self.ref(r, LOCATIONS, "callee location")
            return CallSiteLoc(callee, self.ref(r, LOCATIONS, "caller location"))
        raise r.error("a debug info tag (0-6)", f"got {tag}", at)

    def ref(self, r: ByteReader, kinds: type | tuple[type, ...], what: str) -> Attribute:
        at = r.pos
        attr = self.attr(r.varint(f"{what} index"), at)
        if not isinstance(attr, kinds):
            raise r.error(f"a {what}", f"got {attr}", at)
        return attr

    def string(self, r: ByteReader, what: str) -> StringAttr:
        return StringAttr(self.strings[r.index(f"{what} string index", len(self.strings))])

    @staticmethod
    def number(r: ByteReader, what: str) -> IntAttr:
        at = r.pos
        value = r.varint(what)
        if value >> 32:
            raise r.error(f"a 32-bit {what}", f"got {value}", at)
        return IntAttr(value)


LOCATIONS = (UnknownLoc, DILocAttr, CallSiteLoc)
"""What a call site's callee and caller can be in the table."""
