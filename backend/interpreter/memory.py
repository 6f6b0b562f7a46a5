"""Global memory: a flat, byte-addressed address space of numpy buffers.

Pointers are plain 64-bit byte addresses (``uint64`` in pointer tiles), so
``offset``, ``ptr_to_int`` and ``int_to_ptr`` are integer arithmetic and a
tensor view is a base address plus strides.  Every address used by a load,
store or atomic must fall inside a *live buffer*: a registered host array, a
``global`` or an ``alloca``.  Buffers are placed at 256-byte aligned addresses
with unmapped gaps between them, and address 0 is never mapped, so running off
the end of a buffer or dereferencing a null or poisoned pointer is an error
rather than a silent access to a neighbour.

Host arrays are registered by reference: stores write straight into them.  An
array whose memory lies inside an already registered array (a numpy view)
gets the matching address inside that buffer, so aliasing between launch
arguments is visible to the race detector.

Where host arrays go: by default after the buffers placed so far; a
``placement`` (``GlobalMemory(placement=...)``) gives each its address
instead, so that a caller launching again and again (the runtime's CPU
backend) can keep every array at one address for its life, as device memory
is, and addresses stored by one launch (a pointer table) mean the same memory
in the next.  ``placement.outside(address)`` then says what an address
outside this launch's buffers belonged to, for the fault's message.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .errors import LaunchError, MemoryAccessError

FIRST_ADDRESS = 0x10000000
GAP = 1 << 16
"""Unmapped bytes between consecutive buffers."""
ALIGNMENT = 256
POISON_BYTE = 0xDE
"""Fill of memory nobody initialised (``alloca``)."""


@dataclass(eq=False)
class Buffer:
    """One live region of global memory."""

    name: str
    address: int
    array: np.ndarray
    """The registered array (host arrays) or the backing bytes."""
    data: np.ndarray = field(repr=False)
    """The same memory as a flat ``uint8`` array."""
    readonly: bool = False
    _typed: dict[np.dtype, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def nbytes(self) -> int:
        return self.data.size

    @property
    def end(self) -> int:
        return self.address + self.nbytes

    def typed(self, dtype: np.dtype) -> np.ndarray:
        """The buffer as a flat array of ``dtype`` (trailing odd bytes left out)."""
        view = self._typed.get(dtype)
        if view is None:
            whole = self.nbytes - self.nbytes % dtype.itemsize
            view = self.data[:whole].view(dtype)
            self._typed[dtype] = view
        return view

    def describe(self, offset: int) -> str:
        """The element at byte ``offset``, as ``name[i, j]`` of the registered array."""
        item = self.array.itemsize
        if offset % item or self.array.ndim == 0:
            return f"{self.name}[byte {offset}]" if self.array.ndim else self.name
        order = "F" if self.array.flags.f_contiguous and not self.array.flags.c_contiguous else "C"
        index = np.unravel_index(offset // item, self.array.shape, order=order)
        return f"{self.name}[{', '.join(str(int(i)) for i in index)}]"


@dataclass(frozen=True)
class Span:
    """The part of one access that falls into one buffer."""

    buffer: Buffer
    index: np.ndarray
    """Element indices into ``buffer.typed(dtype)``, one per lane of the span."""
    lanes: np.ndarray | None
    """Positions of these lanes in the flattened access (None: all of them)."""


class Placement(Protocol):
    """Where host arrays live (see the module doc)."""

    def address(self, array: np.ndarray) -> int:
        """The address of ``array``'s first byte: ``ALIGNMENT``-aligned, its span clear of every other
        array's and at or above ``PLACED_FROM`` (below it, launches place their own buffers)."""

    def outside(self, address: int) -> str | None:
        """What ``address`` belongs to if no buffer of this launch holds it (None: nothing known)."""


PLACED_FROM = 1 << 44
"""Where a ``Placement``'s addresses start: far above a launch's own buffers (``FIRST_ADDRESS``...)."""


class GlobalMemory:
    """The address space one or more launches share."""

    def __init__(self, placement: Placement | None = None) -> None:
        self.placement = placement
        self._buffers: list[Buffer] = []
        self._bases: list[int] = []
        self._base_array = np.zeros(0, dtype=np.uint64)
        self._end_array = np.zeros(0, dtype=np.uint64)
        self._next = FIRST_ADDRESS
        self._by_host: dict[int, Buffer] = {}
        self.globals: dict[object, Buffer] = {}
        """Buffers of ``cuda_tile.global`` ops, keyed by the op (see ``engine``)."""

    # -- buffers -------------------------------------------------------------

    @property
    def buffers(self) -> tuple[Buffer, ...]:
        return tuple(self._buffers)

    def register(self, array: np.ndarray, name: str | None = None) -> int:
        """The address of a host array's first byte, registering it if needed.

        The array must be contiguous; it is read-only if numpy says so.
        """
        if not isinstance(array, np.ndarray):
            raise LaunchError(f"expected a numpy array, got {type(array).__name__}")
        if not (array.flags.c_contiguous or array.flags.f_contiguous):
            raise LaunchError(
                f"array {name or ''} is not contiguous; pass a contiguous array "
                "(and its strides as view strides)".replace("  ", " ")
            )
        start = array.__array_interface__["data"][0]
        size = array.nbytes
        for buffer in self._by_host.values():
            host = buffer.array.__array_interface__["data"][0]
            if host <= start and start + size <= host + buffer.nbytes:
                return buffer.address + (start - host)
            if start < host + buffer.nbytes and host < start + size:
                raise LaunchError(
                    f"array {name or ''} partly overlaps buffer '{buffer.name}'".replace(
                        "  ", " "
                    )
                )
        data = array.reshape(-1, order="A").view(np.uint8) if size else np.zeros(0, np.uint8)
        buffer = self._place(
            name or f"buffer{len(self._buffers)}", array, data, not array.flags.writeable,
            at=None if self.placement is None else self.placement.address(array),
        )
        self._by_host[start] = buffer
        return buffer.address

    def allocate(
        self,
        nbytes: int,
        name: str,
        *,
        alignment: int = ALIGNMENT,
        fill: int = POISON_BYTE,
        readonly: bool = False,
    ) -> Buffer:
        """A fresh buffer of ``nbytes`` bytes filled with ``fill``."""
        data = np.full(nbytes, fill, dtype=np.uint8)
        return self._place(name, data, data, readonly, alignment)

    def release(self, buffer: Buffer) -> None:
        """Unmap a buffer: later accesses to its addresses are errors."""
        i = self._buffers.index(buffer)
        del self._buffers[i], self._bases[i]
        self._by_host = {k: b for k, b in self._by_host.items() if b is not buffer}
        self._refresh()

    def _place(
        self,
        name: str,
        array: np.ndarray,
        data: np.ndarray,
        readonly: bool,
        alignment: int = ALIGNMENT,
        at: int | None = None,
    ) -> Buffer:
        if at is None:
            align = max(alignment, ALIGNMENT)
            address = -(-self._next // align) * align
            self._next = address + max(data.size, 1) + GAP
        else:
            address = at
        buffer = Buffer(name, address, array, data, readonly)
        i = bisect.bisect(self._bases, address)
        self._buffers.insert(i, buffer)
        self._bases.insert(i, address)
        self._refresh()
        return buffer

    def _refresh(self) -> None:
        self._base_array = np.array(self._bases, dtype=np.uint64)
        self._end_array = np.array([b.end for b in self._buffers], dtype=np.uint64)

    def buffer_at(self, address: int) -> Buffer | None:
        """The live buffer containing byte ``address``."""
        i = bisect.bisect(self._bases, address) - 1
        if i >= 0 and address < self._buffers[i].end:
            return self._buffers[i]
        return None

    # -- access --------------------------------------------------------------

    def locate_box(self, start: int, offsets: np.ndarray, extent: int, itemsize: int) -> Span | None:
        """The one span of the elements ``start + offsets`` (byte ``start``,
        ``itemsize``-byte elements, ``offsets`` in ``[0, extent)``) if they lie
        aligned inside one live buffer; None otherwise (``locate`` on their
        addresses then says what is wrong)."""
        if start % itemsize:
            return None
        first = self.buffer_at(start)
        if first is None or start + extent * itemsize > first.end or (start - first.address) % itemsize:
            return None
        return Span(first, offsets.ravel() + (start - first.address) // itemsize, None)

    def locate(self, addresses: np.ndarray, itemsize: int) -> list[Span]:
        """Split an access of ``itemsize``-byte elements by buffer.

        Raises ``MemoryAccessError`` for the first misaligned address or
        element not wholly inside one live buffer.
        """
        flat = addresses.ravel()
        if flat.size == 0:
            return []
        if itemsize > 1:
            misaligned = (flat & np.uint64(itemsize - 1)) != 0  # itemsize: a power of two
            if misaligned.any():
                bad = int(flat[np.argmax(misaligned)])
                raise MemoryAccessError(
                    f"address {bad:#x} is not aligned to the {itemsize}-byte element size"
                )
        lo, hi = int(flat.min()), int(flat.max())
        first = self.buffer_at(lo)
        if first is not None and hi + itemsize <= first.end:
            index = ((flat - np.uint64(first.address)) // np.uint64(itemsize)).astype(np.intp)
            return [Span(first, index, None)]
        k = np.searchsorted(self._base_array, flat, side="right").astype(np.intp) - 1
        inside = k >= 0
        kk = np.where(inside, k, 0)
        if self._buffers:
            inside &= flat + np.uint64(itemsize) <= self._end_array[kk]
        if not inside.all():
            raise MemoryAccessError(self._fault(int(flat[np.argmin(inside)]), itemsize))
        spans = []
        for u in np.unique(kk):
            lanes = np.nonzero(kk == u)[0]
            buffer = self._buffers[int(u)]
            index = ((flat[lanes] - np.uint64(buffer.address)) // np.uint64(itemsize)).astype(np.intp)
            spans.append(Span(buffer, index, lanes))
        return spans

    def _fault(self, address: int, itemsize: int) -> str:
        """Why an access of ``itemsize`` bytes at ``address`` is invalid."""
        where = f"address {address:#x} ({itemsize} bytes)"
        inside = self.buffer_at(address)
        if inside is not None:
            return (
                f"{where} runs past the end of buffer '{inside.name}' "
                f"[{inside.address:#x}, {inside.end:#x})"
            )
        i = bisect.bisect(self._bases, address) - 1
        near = []
        if i >= 0:
            b = self._buffers[i]
            near.append(f"{address - b.end} bytes after buffer '{b.name}' [{b.address:#x}, {b.end:#x})")
        if i + 1 < len(self._buffers):
            b = self._buffers[i + 1]
            near.append(f"{b.address - address} bytes before buffer '{b.name}'")
        hint = f" ({'; '.join(near)})" if near else ""
        known = None if self.placement is None else self.placement.outside(address)
        if known is not None:
            return f"{where} is outside this launch's buffers{hint}: {known}"
        return f"{where} is outside every live buffer{hint}"
