"""Device memory: ``DeviceArray``, the storage of a GPU tensor.

A ``DeviceArray`` is an address, a shape, byte strides and a numpy dtype
(numpy's conventions, so the runtime treats host and device storage alike).
Memory it allocated goes back to the device pool when the array is garbage;
memory it wraps (from torch, CuPy, JAX through DLPack or
``__cuda_array_interface__``) is kept alive through ``owner`` and never freed
here.  ``stream`` is the stream of the last work that used it: host copies
are ordered after that work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .driver import call, load
from .stream import CudaStream


class DeviceArray:
    """A strided array in GPU memory."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "stream", "owner", "_owned", "span", "__weakref__")

    def __init__(self, ptr: int, shape: Sequence[int], strides: Sequence[int], dtype: np.dtype,
                 stream: CudaStream, owner: Any = None, owned: bool = False):
        self.ptr = int(ptr)
        self.shape = tuple(int(d) for d in shape)
        self.strides = tuple(int(s) for s in strides)
        """In bytes, as numpy's."""
        self.dtype = np.dtype(dtype)
        self.stream = stream
        self.owner = owner
        self._owned = owned
        self.span = self._compute_span()
        """The half-open address range ``(start, end)`` its elements lie in (with any gaps
        between them): what overlap checks compare, and what a launch records it may write."""

    @classmethod
    def allocate(cls, shape: Sequence[int], dtype: np.dtype, stream: CudaStream) -> DeviceArray:
        """Uninitialised C-contiguous memory from the device pool, ordered on ``stream``."""
        dtype = np.dtype(dtype)
        shape = tuple(int(d) for d in shape)
        nbytes = max(math.prod(shape) * dtype.itemsize, 1)
        ptr = call(load().cuMemAllocAsync, nbytes, stream.handle)
        return cls(int(ptr), shape, contiguous_strides(shape, dtype.itemsize), dtype, stream, owned=True)

    def at(self, ptr: int, owner: Any, stream: CudaStream) -> DeviceArray:
        """An array of this one's shape, strides and dtype over the memory at ``ptr``, which
        ``owner`` keeps alive (never freed here), used on ``stream``: its span this one's moved
        to ``ptr``, nothing computed again (a torch kernel op's warm path makes one a tensor a
        call, of the layout its signature's first call checked)."""
        array = DeviceArray.__new__(DeviceArray)
        array.ptr, array.shape, array.strides, array.dtype = ptr, self.shape, self.strides, self.dtype
        array.stream, array.owner, array._owned = stream, owner, False
        start, end = self.span
        array.span = (start - self.ptr + ptr, end - self.ptr + ptr)
        return array

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    def _compute_span(self) -> tuple[int, int]:
        """The half-open address range the elements lie in (empty for no elements)."""
        if self.size == 0:
            return self.ptr, self.ptr
        low = self.ptr + sum(s * (d - 1) for s, d in zip(self.strides, self.shape) if s < 0)
        high = self.ptr + sum(s * (d - 1) for s, d in zip(self.strides, self.shape) if s > 0)
        return low, high + self.itemsize

    def overlaps(self, other: DeviceArray) -> bool:
        """Whether the two arrays' address ranges meet (conservative for interleaved views)."""
        (a, b), (c, d) = self.span, other.span
        return a < d and c < b

    def is_contiguous(self) -> bool:
        return self.strides == contiguous_strides(self.shape, self.itemsize)

    def to_host(self) -> np.ndarray:
        """A host copy, after the work on ``stream`` (waits for it)."""
        driver = load()
        if not self.is_contiguous():
            raise ValueError(
                f"cannot copy a non-contiguous device array (strides {self.strides}) to the host; "
                "copy it on the device first"
            )
        out = np.empty(self.shape, self.dtype)
        if out.nbytes:
            call(driver.cuMemcpyDtoHAsync, out.ctypes.data, self.ptr, out.nbytes, self.stream.handle)
        self.stream.synchronize()
        return out

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.ptr, False),
            "strides": None if self.is_contiguous() else self.strides,
            "version": 3,
            "stream": int(self.stream.handle),
        }

    def __repr__(self) -> str:
        return f"DeviceArray(0x{self.ptr:x}, shape={self.shape}, dtype={self.dtype})"

    def __del__(self) -> None:
        if self._owned:
            try:
                self.stream.free(self.ptr)
            except Exception:  # interpreter shutdown: the driver may be gone
                pass


def contiguous_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def upload(array: np.ndarray, stream: CudaStream) -> DeviceArray:
    """A device copy of the C-contiguous host ``array``."""
    host = np.ascontiguousarray(array)
    out = DeviceArray.allocate(host.shape, host.dtype, stream)
    if host.nbytes:
        # From pageable memory the copy is staged before the call returns,
        # so ``host`` may be freed afterwards.
        call(load().cuMemcpyHtoDAsync, out.ptr, host.ctypes.data, host.nbytes, stream.handle)
    return out


def snapshot(array: DeviceArray) -> DeviceArray:
    """A copy of the bytes ``array`` spans (its elements and any gaps between them),
    after the work on its stream: what ``restore`` puts back, whatever the strides."""
    low, high = array.span
    copy = DeviceArray.allocate((high - low,), np.dtype(np.uint8), array.stream)
    if high > low:
        call(load().cuMemcpyDtoDAsync, copy.ptr, low, high - low, array.stream.handle)
    return copy


def restore(array: DeviceArray, copy: DeviceArray) -> None:
    """Put ``snapshot(array)``'s bytes back, after the work on the array's stream."""
    low, high = array.span
    if high > low:
        call(load().cuMemcpyDtoDAsync, low, copy.ptr, high - low, array.stream.handle)
    copy.stream = array.stream  # freed after this copy has read it


_MEMSET = {1: ("cuMemsetD8Async", np.uint8), 2: ("cuMemsetD16Async", np.uint16), 4: ("cuMemsetD32Async", np.uint32)}


def fill(shape: Sequence[int], dtype: np.dtype, value: Any, stream: CudaStream) -> DeviceArray:
    """C-contiguous device memory of ``shape`` with every element ``value`` (a memset where
    the element is 1, 2 or 4 bytes; an upload otherwise)."""
    dtype = np.dtype(dtype)
    memset = _MEMSET.get(dtype.itemsize)
    if memset is None:
        return upload(np.full(tuple(shape), value, dtype), stream)
    out = DeviceArray.allocate(shape, dtype, stream)
    name, bits = memset
    pattern = int(np.asarray(value, dtype).view(bits))
    if out.size:
        call(getattr(load(), name), out.ptr, pattern, out.size, stream.handle)
    return out
