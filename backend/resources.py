"""What a kernel of a cubin uses of the GPU, read from the ELF file itself.

    usage = kernel_resources(entry.cubin, "gemm_f16_128_128_64")
    usage.registers, usage.shared_bytes, usage.stack_bytes, usage.local_bytes

The numbers ``cuobjdump -res-usage`` prints as ``REG``, ``SHARED``,
``STACK`` and ``LOCAL``, without needing ``cuobjdump`` (a GPU machine served
by a cubin cache built elsewhere has no toolchain):

* ``SHARED``: the size of the section ``.nv.shared.<kernel>`` (static shared
  memory; 0 without the section);
* ``LOCAL``: the size of ``.nv.local.<kernel>``;
* ``REG`` and ``STACK``: the ``EIATTR_REGCOUNT`` and ``EIATTR_FRAME_SIZE``
  attributes of the kernel's symbol in ``.nv.info``.  Each attribute there is
  ``format:u8 attribute:u8`` then, for the "sized" format 4, ``size:u16`` and
  ``size`` bytes: here ``symbol index:u32, value:u32``.

``ptxas`` spills registers to the stack frame: a Tile IR kernel has no calls
or local arrays, so a non-zero ``STACK`` (or ``LOCAL``) means spills.  The
test compares every number with ``cuobjdump -res-usage``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from .tileiras import ELF_MAGIC

EIATTR_FRAME_SIZE = 0x11
EIATTR_REGCOUNT = 0x2F
_SIZED = 4
"""The attribute format whose payload is ``size:u16`` bytes."""


class CubinFormatError(ValueError):
    """The bytes are not a 64-bit little-endian ELF cubin holding the kernel."""


@dataclass(frozen=True)
class KernelResources:
    """One kernel's use of the GPU, per thread (registers, stack, local) or per block (shared)."""

    registers: int
    shared_bytes: int
    stack_bytes: int
    local_bytes: int

    @property
    def spill_bytes(self) -> int:
        """Bytes of stack and local memory per thread: spilled registers, in a Tile IR kernel."""
        return self.stack_bytes + self.local_bytes


def kernel_resources(cubin: bytes, kernel: str) -> KernelResources:
    """The resources of ``kernel`` (its symbol) in ``cubin``; ``CubinFormatError`` if it is not there."""
    sections = _sections(cubin)
    symbol = _symbol_index(sections, kernel)
    attributes = _info_attributes(sections.get(".nv.info", b""), symbol)
    return KernelResources(
        registers=attributes.get(EIATTR_REGCOUNT, 0),
        shared_bytes=len(sections.get(f".nv.shared.{kernel}", b"")),
        stack_bytes=attributes.get(EIATTR_FRAME_SIZE, 0),
        local_bytes=len(sections.get(f".nv.local.{kernel}", b"")),
    )


_SECTION = struct.Struct("<IIQQQQIIQQ")
"""Elf64_Shdr: name, type, flags, addr, offset, size, link, info, addralign, entsize."""
_SYMBOL = struct.Struct("<IBBHQQ")
"""Elf64_Sym: name, info, other, shndx, value, size."""
_NOBITS = 8
"""SHT_NOBITS: a section with a size but no bytes in the file (``.nv.shared.*``)."""


def _sections(cubin: bytes) -> dict[str, bytes]:
    """Each section's contents by name (a NOBITS section as zero bytes of its size)."""
    if not cubin.startswith(ELF_MAGIC) or len(cubin) < 64 or cubin[4] != 2 or cubin[5] != 1:
        raise CubinFormatError("not a 64-bit little-endian ELF file")
    (offset,) = struct.unpack_from("<Q", cubin, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [_SECTION.unpack_from(cubin, offset + i * entry_size) for i in range(count)]
    names = headers[names_index]
    names_at = names[4]

    def name(at: int) -> str:
        start = names_at + at
        return cubin[start : cubin.index(b"\0", start)].decode()

    return {
        name(h[0]): bytes(h[5]) if h[1] == _NOBITS else cubin[h[4] : h[4] + h[5]]
        for h in headers
    }


def _symbol_index(sections: dict[str, bytes], kernel: str) -> int:
    table, names = sections.get(".symtab", b""), sections.get(".strtab", b"")
    for index in range(len(table) // _SYMBOL.size):
        at = _SYMBOL.unpack_from(table, index * _SYMBOL.size)[0]
        if names[at : names.index(b"\0", at)].decode() == kernel:
            return index
    raise CubinFormatError(f"the cubin has no kernel '{kernel}'")


def _info_attributes(info: bytes, symbol: int) -> dict[int, int]:
    """The sized ``symbol index, value`` attributes of ``symbol`` in ``.nv.info``."""
    found: dict[int, int] = {}
    at = 0
    while at + 4 <= len(info):
        form, attribute = info[at], info[at + 1]
        if form != _SIZED:
            at += 4  # the other formats hold two bytes of value in place
            continue
        (size,) = struct.unpack_from("<H", info, at + 2)
        if size == 8 and struct.unpack_from("<I", info, at + 4)[0] == symbol:
            found[attribute] = struct.unpack_from("<I", info, at + 8)[0]
        at += 4 + size
    return found
