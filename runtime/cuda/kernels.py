"""Loaded kernels: cubins from the cache, parameters laid out by the launch ABI.

``CudaKernel`` holds a loaded ``CUmodule``/``CUfunction`` and the layout of
its parameters (docs/abi.md): pointers are 8 bytes, shapes and strides i32,
scalars their own type, at C alignment in one buffer, with the ``void**``
array ``cuLaunchKernel`` takes pointing into it.  The driver copies the
parameter values at the call, so a buffer may be rewritten as soon as the
call returns.  Launches are ``cuLaunchKernel`` with grid = tile blocks and
block = (1, 1, 1) (the cubin carries its thread count).  A kernel compiled
as a programmatic dependent (``CompiledVariant.dependent_launch``) is
launched by ``cuLaunchKernelEx`` with ``PROGRAMMATIC_STREAM_SERIALIZATION``:
its launch may overlap the end of the kernel before it on the stream, which
is safe because the kernel waits for that kernel (``griddepcontrol.wait``)
before any memory access.  A kernel that also reads some tensors before that
wait (``CompiledVariant.early_reads``) holds both launches and chooses one
per launch: the programmatic one only where the work just before it on the
stream is a kernel launch of ours writing none of what it reads early, the
ordinary one otherwise (the rule and why it is safe: ``runtime/cuda/stream.py``).
Every launch records on its stream what it may write.  A value that does not
fit its type (an extent of 2^31 or more) is an ``OverflowError`` naming the
kernel.
"""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.backend.elements import to_storage
from safetile.dialects.cuda_tile.types import PointerType, TileType

from .driver import CudaError, KernelLaunch, call, error, kernel_launch, load
from .stream import CudaStream, Spans

_FORMATS = {"i1": "?", "i8": "b", "i16": "h", "i32": "i", "i64": "q", "f16": "e", "f32": "f", "f64": "d",
            "bf16": "H"}
"""``struct`` codes of the scalar parameter types."""

def _code(param_type: Any) -> str:
    if isinstance(param_type, TileType):
        element = param_type.element_type
        if isinstance(element, PointerType):
            return "Q"
        name = str(element)
        if name in _FORMATS:
            return _FORMATS[name]
    raise TypeError(f"kernel parameter of type {param_type} cannot be passed from the host")


class Parameters:
    """A parameter buffer of one kernel and the ``void**`` array pointing into it."""

    def __init__(self, size: int, offsets: Sequence[int]):
        self.buffer = (ctypes.c_char * max(size, 8))()
        base = ctypes.addressof(self.buffer)
        self.pointers = (ctypes.c_void_p * max(len(offsets), 1))(*[base + o for o in offsets])
        self.address = ctypes.addressof(self.pointers)
        """What ``cuLaunchKernel`` takes as ``kernelParams``."""


class ParameterLayout:
    """Where a kernel's parameters lie in its parameter buffer, and how they are packed."""

    def __init__(self, symbol: str, param_types: Sequence[Any]):
        self.symbol = symbol
        self.codes = tuple(_code(t) for t in param_types)
        self._struct = struct.Struct("@" + "".join(self.codes))
        self.offsets = _offsets(self.codes)
        self._bf16 = {i: t.element_type for i, (c, t) in enumerate(zip(self.codes, param_types)) if c == "H"}

    def new(self) -> Parameters:
        return Parameters(self._struct.size, self.offsets)

    def pack(self, args: Sequence[Any], into: Parameters) -> None:
        """Write ``args`` (pointers as addresses) into ``into``; ``OverflowError`` if one does not fit."""
        values = list(args)
        for p, element in self._bf16.items():  # rounded to nearest even, as a bf16 conversion does
            values[p] = _bf16_bits(values[p], element)
        try:
            self._struct.pack_into(into.buffer, 0, *values)
        except struct.error as err:
            raise self._overflow(err) from None

    def pointer(self, into: Parameters, position: int) -> ctypes.c_uint64:
        """A view of pointer parameter ``position`` in ``into``: setting its ``value`` writes the address."""
        assert self.codes[position] == "Q", f"parameter {position} of '{self.symbol}' is not a pointer"
        return ctypes.c_uint64.from_buffer(into.buffer, self.offsets[position])

    def scalar(self, into: Parameters, position: int) -> Callable[[Any], None]:
        """A function writing scalar parameter ``position`` into ``into`` (checked as ``pack``)."""
        pack_into, buffer, offset = struct.Struct("@" + self.codes[position]).pack_into, into.buffer, self.offsets[position]
        element = self._bf16.get(position)

        def write(value: Any) -> None:
            try:
                pack_into(buffer, offset, value if element is None else _bf16_bits(value, element))
            except struct.error as err:
                raise self._overflow(err) from None

        return write

    def _overflow(self, err: struct.error) -> OverflowError:
        return OverflowError(
            f"a parameter of '{self.symbol}' does not fit its type ({err}); shapes and strides "
            "are i32 in the launch ABI: split tensors of 2^31 elements or more"
        )


def _bf16_bits(value: Any, element: Any) -> int:
    return int(to_storage(np.float32(value), element))


class CudaKernel:
    """A kernel loaded on the device, ready to launch."""

    def __init__(self, cubin: bytes, symbol: str, param_types: Sequence[Any], param_names: Sequence[str],
                 programmatic: bool = False, reads_early: bool = False):
        driver = load()
        self.symbol = symbol
        self.programmatic = programmatic
        """Launched as a programmatic dependent (``cuLaunchKernelEx``; see the module doc), where
        ``plain`` does not choose otherwise."""
        self.launch_call = "cuLaunchKernelEx" if programmatic else "cuLaunchKernel"
        """The driver call of ``enqueue``, as errors name it."""
        self.param_names = tuple(param_names)
        self._image = np.frombuffer(cubin, dtype=np.uint8)
        self.module = call(driver.cuModuleLoadData, self._image.ctypes.data)
        self.function = call(driver.cuModuleGetFunction, self.module, symbol.encode())
        self.layout = ParameterLayout(symbol, param_types)
        self.enqueue = kernel_launch(self.function, programmatic)
        """``enqueue(grid_x, grid_y, grid_z, stream.address, params.address) -> CUresult``."""
        self.plain: KernelLaunch | None = kernel_launch(self.function) if programmatic and reads_early else None
        """The ordinary launch of a programmatic kernel that reads memory before its wait (its early
        reads), taken wherever the work before it on the stream may write that memory; ``None``
        for a kernel launched one way always."""

    def packed(self, args: Sequence[Any]) -> Parameters:
        """A buffer of its own holding ``args``."""
        params = self.layout.new()
        self.layout.pack(args, params)
        return params

    def choose(self, stream: CudaStream, reads: Spans | None) -> KernelLaunch:
        """How a kernel with early reads (``plain`` set) launches on ``stream`` now: programmatic
        where the work enqueued last is a launch of ours writing none of ``reads`` (the address
        ranges it reads before its wait; ``None``: unknown), ordinarily otherwise.  The caller
        holds ``stream.lock`` until it has enqueued the launch and recorded its writes."""
        early = reads is not None and stream.last_work_spares(reads)
        return self.enqueue if early else self.plain  # type: ignore[return-value]

    def launch_packed(self, grid: tuple[int, int, int], params: Parameters, stream: CudaStream,
                      writes: Spans | None = None, reads: Spans | None = None) -> None:
        """One launch of the values in ``params``: ``cuLaunchKernel``, or ``cuLaunchKernelEx`` for a
        programmatic dependent (with early reads, as ``choose`` says).  ``writes``: the address
        ranges it may write, recorded on the stream; ``reads``: those it reads before its wait
        (``None``, the default: unknown, as if after any other work and reading anything)."""
        enqueue, err = self.enqueue_recorded(grid[0], grid[1], grid[2], stream, params.address, writes, reads)
        if err:
            raise self.failed(enqueue, err)

    def enqueue_recorded(self, x: int, y: int, z: int, stream: CudaStream, address: int, writes: Spans | None,
                         reads: Spans | None) -> tuple[KernelLaunch, int]:
        """Enqueue one launch of the parameters at ``address`` and record ``writes`` on the stream, under
        its lock (``launch_packed``'s arguments; ``CudaLauncher.launch`` calls it directly): the
        launch call made and the ``CUresult`` it returned."""
        lock = stream.lock
        lock.acquire()
        try:
            enqueue = self.enqueue if self.plain is None else self.choose(stream, reads)
            stream.last_writes = None  # unknown, should the call fail
            err = enqueue(x, y, z, stream.address, address)
            if not err:
                stream.last_writes = writes
        finally:
            lock.release()
        return enqueue, err

    def failed(self, enqueue: KernelLaunch, err: int) -> CudaError:
        """The error of a launch through ``enqueue`` (one of this kernel's) that returned ``err``,
        naming the driver call made."""
        return error("cuLaunchKernel" if enqueue is self.plain else self.launch_call, err)


def _offsets(codes: Sequence[str]) -> list[int]:
    """Each parameter's offset in the ``@``-aligned struct of ``codes``."""
    offsets, fmt = [], "@"
    for code in codes:
        size = struct.calcsize(fmt)
        align = struct.calcsize(code)
        start = -(-size // align) * align
        offsets.append(start)
        fmt += "x" * (start - size) + code
    return offsets
