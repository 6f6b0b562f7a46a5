"""The Tile IR bytecode container: versions, sections, integers, errors.

Everything here is independent of the ``cuda_tile`` ops; ``encodings`` says
how each op, type and attribute is laid out, ``writer`` and ``reader`` walk IR.

A file is (``lib/Bytecode/{Writer,Reader}`` of NVIDIA/cuda-tile are the
authority; docs.nvidia.com/cuda/tile-ir "Binary Format" the overview)::

    magic       7F 'T' 'i' 'l' 'e' 'I' 'R' 00
    version     major u8, minor u8, tag u16 little-endian
    section*    id u8 (bit 7 set: aligned), length varint,
                [alignment varint, padding 0xCB up to it], payload
    end         00

Integers are LEB128 varints; signed ones are zigzag-encoded first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

MAGIC = b"\x7fTileIR\x00"
ALIGNMENT_BYTE = 0xCB
"""Padding before aligned data (``kAlignmentByte`` in ``BytecodeEnums.h``)."""

MAX_NESTING = 64
"""Deepest region nesting the reader accepts; deeper input is rejected, not recursed."""


class Section(IntEnum):
    END = 0x00
    STRING = 0x01
    FUNC = 0x02
    DEBUG = 0x03
    CONSTANT = 0x04
    TYPE = 0x05
    GLOBAL = 0x06
    PRODUCER = 0x07


SECTION_ALIGNMENT = {
    Section.STRING: 4,
    Section.TYPE: 4,
    Section.CONSTANT: 8,
    Section.DEBUG: 8,
    Section.FUNC: 8,
}
"""Sections whose payload must start at a multiple of this many bytes."""


class FunctionFlags(IntEnum):
    """The flags byte of a function-table entry.

    Before 13.5 bit 2 says whether ``optimization_hints`` follow.  From 13.5
    on the hints and the ``arg_attrs`` array always follow a kernel's
    location, and bits 2-3 are the entry's *form* (``FORM_MASK``): 0 a plain
    function, 1 an extern implementation, 2 a testing entry, 3 reserved; 13.5's
    reader rejects bits 4 and up.
    """

    PRIVATE = 0x01
    KERNEL = 0x02
    HAS_OPTIMIZATION_HINTS = 0x04


FORM_MASK = 0x0C
"""13.5: the bits of ``FunctionFlags`` that hold an entry's form (safetile writes 0)."""


# --------------------------------------------------------------------------
# Versions
# --------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Version:
    """A bytecode version ``major.minor`` (Tile IR releases 13.1 ... 13.5)."""

    major: int
    minor: int

    @staticmethod
    def parse(text: str) -> Version:
        parts = text.strip().split(".")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError(f"invalid bytecode version '{text}' (expected e.g. 13.4)")
        version = Version(int(parts[0]), int(parts[1]))
        if version not in SUPPORTED_VERSIONS:
            raise ValueError(
                f"unsupported bytecode version {version}; supported: "
                + ", ".join(map(str, SUPPORTED_VERSIONS))
            )
        return version

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


V13_1, V13_2, V13_3, V13_4, V13_5 = (Version(13, m) for m in (1, 2, 3, 4, 5))
SUPPORTED_VERSIONS = (V13_1, V13_2, V13_3, V13_4, V13_5)
DEFAULT_VERSION = V13_4
"""What is written unless a version is asked for: the pinned toolchain's (13.4.92)."""

ENTRY_ATTRIBUTES = V13_5
"""From 13.5 on a kernel's entry always carries its hints and an ``arg_attrs`` array."""

UNIFIED_BITFIELD = V13_3
"""From 13.3 on, optional type parameters share one presence bitfield."""

ARCH_INDEPENDENT = V13_3
"""Bytecode older than this must name the architecture it targets."""


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


class BytecodeError(Exception):
    """Base of the errors raised while writing or reading bytecode."""


class BytecodeWriteError(BytecodeError):
    """The IR cannot be written (at the requested version)."""


class BytecodeReadError(BytecodeError):
    """Malformed input: ``offset`` is where in the file, ``expected`` what was due."""

    def __init__(self, offset: int, expected: str, detail: str = ""):
        self.offset = offset
        self.expected = expected
        self.detail = detail
        message = f"offset {offset}: expected {expected}"
        super().__init__(f"{message} ({detail})" if detail else message)


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

_U64 = (1 << 64) - 1


class ByteWriter:
    """An append-only byte buffer with the encodings the format uses."""

    def __init__(self) -> None:
        self.data = bytearray()

    def __len__(self) -> int:
        return len(self.data)

    def byte(self, value: int) -> None:
        self.data.append(value)

    def raw(self, data: bytes | bytearray) -> None:
        self.data += data

    def varint(self, value: int) -> None:
        """Unsigned LEB128; negative values are written as their 64-bit pattern."""
        value &= _U64
        while value > 0x7F:
            self.data.append((value & 0x7F) | 0x80)
            value >>= 7
        self.data.append(value)

    def signed_varint(self, value: int) -> None:
        """Zigzag then LEB128 (``writeSignedVarInt``): small magnitudes stay short."""
        value &= _U64
        negative = value >> 63
        self.varint(((value << 1) & _U64) ^ (_U64 if negative else 0))

    def le(self, value: int, width: int) -> None:
        self.data += (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")

    def le_list(self, values: list[int] | tuple[int, ...], width: int) -> None:
        """A varint count, then fixed-width little-endian values (``writeLEVarSize``)."""
        self.varint(len(values))
        for v in values:
            self.le(v, width)

    def align(self, alignment: int) -> None:
        self.data += bytes([ALIGNMENT_BYTE]) * (-len(self.data) % alignment)


def write_section(out: ByteWriter, section: Section, payload: bytes | bytearray) -> None:
    """Append a section header and payload (aligned if the section needs it)."""
    alignment = SECTION_ALIGNMENT.get(section, 1)
    out.byte(section | (0x80 if alignment > 1 else 0))
    out.varint(len(payload))
    if alignment > 1:
        out.varint(alignment)
        out.align(alignment)
    out.raw(payload)


def write_table(out: ByteWriter, entries: list[bytes], offset_width: int) -> None:
    """An interned table: count, padding, one offset per entry, the entries."""
    out.varint(len(entries))
    out.align(offset_width)
    running = 0
    for entry in entries:
        out.le(running, offset_width)
        running += len(entry)
    for entry in entries:
        out.raw(entry)


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


class ByteReader:
    """A bounds-checked cursor over ``data[start:end]``.

    Offsets are absolute positions in the whole file, so every error names
    the byte where reading went wrong.  A count read from the input is checked
    against the bytes left before anything is allocated or looped over.
    """

    def __init__(self, data: bytes, start: int = 0, end: int | None = None):
        self.data = data
        self.pos = start
        self.start = start
        self.end = len(data) if end is None else end

    @property
    def remaining(self) -> int:
        return self.end - self.pos

    def at_end(self) -> bool:
        return self.pos >= self.end

    def error(self, expected: str, detail: str = "", at: int | None = None) -> BytecodeReadError:
        return BytecodeReadError(self.pos if at is None else at, expected, detail)

    def sub(self, length: int, what: str) -> ByteReader:
        """A reader over the next ``length`` bytes, which this one skips."""
        if length > self.remaining:
            raise self.error(f"{what} of {length} bytes", f"only {self.remaining} bytes left")
        reader = ByteReader(self.data, self.pos, self.pos + length)
        self.pos += length
        return reader

    def byte(self, what: str) -> int:
        if self.pos >= self.end:
            raise self.error(what, "unexpected end of data")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def raw(self, length: int, what: str) -> bytes:
        if length > self.remaining:
            raise self.error(f"{what} of {length} bytes", f"only {self.remaining} bytes left")
        value = self.data[self.pos : self.pos + length]
        self.pos += length
        return bytes(value)

    def varint(self, what: str) -> int:
        start = self.pos
        result = shift = 0
        while True:
            if self.pos >= self.end:
                raise self.error(what, "unexpected end of data", start)
            b = self.data[self.pos]
            self.pos += 1
            if shift == 63 and b > 1:
                raise self.error(what, "varint does not fit in 64 bits", start)
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def signed_varint(self, what: str) -> int:
        """A zigzag varint, as a signed 64-bit value."""
        u = self.varint(what)
        return (u >> 1) ^ -(u & 1)

    def count(self, what: str, min_size: int = 1) -> int:
        """A varint count of items that take at least ``min_size`` bytes each."""
        start = self.pos
        n = self.varint(what)
        if min_size and n > self.remaining // min_size:
            raise self.error(what, f"count {n} exceeds the {self.remaining} bytes left", start)
        return n

    def index(self, what: str, size: int) -> int:
        """A varint index that must be below ``size``."""
        start = self.pos
        i = self.varint(what)
        if i >= size:
            raise self.error(what, f"index {i} out of range (table has {size})", start)
        return i

    def le(self, width: int, what: str) -> int:
        return int.from_bytes(self.raw(width, what), "little")

    def le_list(self, width: int, what: str, signed: bool = True) -> list[int]:
        n = self.count(f"{what} count", width)
        data = self.raw(n * width, what)
        return [
            int.from_bytes(data[i : i + width], "little", signed=signed)
            for i in range(0, len(data), width)
        ]

    def skip_padding(self, alignment: int, what: str) -> None:
        """Skip padding up to ``alignment`` (relative to this reader's start)."""
        pad = -(self.pos - self.start) % alignment
        if pad > self.remaining:
            raise self.error(f"padding before {what}", "unexpected end of data")
        self.pos += pad

    def expect_end(self, what: str) -> None:
        if self.pos != self.end:
            raise self.error(f"end of {what}", f"{self.end - self.pos} trailing bytes")


def read_table(reader: ByteReader, offset_width: int, what: str) -> list[ByteReader]:
    """The entries of an interned table (see ``write_table``), as readers."""
    n = reader.count(f"number of {what}s", offset_width)
    reader.skip_padding(offset_width, f"{what} offsets")
    table_at = reader.pos
    offsets = [reader.le(offset_width, f"{what} offset") for _ in range(n)]
    data_start, data_end = reader.pos, reader.end
    entries: list[ByteReader] = []
    for i, begin in enumerate(offsets):
        finish = offsets[i + 1] if i + 1 < n else data_end - data_start
        if not begin <= finish <= data_end - data_start:
            raise reader.error(
                f"{what} offset within the table",
                f"{what} {i} spans [{begin}, {finish}) of {data_end - data_start} bytes",
                table_at + i * offset_width,
            )
        entries.append(ByteReader(reader.data, data_start + begin, data_start + finish))
    return entries
