"""The CUDA backend: tensors in device memory, kernels JIT-compiled to cubins.

The compile driver builds each variant for the device's architecture
(``target``) through the cubin cache (``backend/cache.py``: a cubin built
ahead of time, a ``tileiras`` run, or one error saying how to get either);
this backend loads and launches it.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from safetile.driver import CompiledVariant

from ..interface import Backend, Launcher, ParamTemplate
from ..stream import Stream
from . import memory
from .device import Device
from .kernels import CudaKernel, Parameters
from .memory import DeviceArray
from .stream import CudaStream, Spans


DEVICE_ENV = "SAFETILE_DEVICE"
"""The GPU to use (its ordinal, default 0)."""


class CudaBackend(Backend):
    name = "cuda"

    def __init__(self, ordinal: int | None = None):
        if ordinal is None:
            text = os.environ.get(DEVICE_ENV, "0")
            if not text.strip().isdigit():
                raise ValueError(f"{DEVICE_ENV}={text!r}: expected a device ordinal (0, 1, ...)")
            ordinal = int(text)
        self.device = Device.open(ordinal)
        self.target = self.device.arch
        self.device_name = self.device.name
        self.shared_memory_per_block = self.device.shared_memory_per_block
        self.default_stream = CudaStream(self.device, "default")

    def describe(self) -> str:
        return f"running kernels on the GPU: {self.device.describe()}"

    def new_stream(self, name: str, ahead: bool = False) -> CudaStream:
        return CudaStream(self.device, name, ahead)

    def upload(self, array: np.ndarray, stream: Stream) -> DeviceArray:
        return memory.upload(array, stream)  # type: ignore[arg-type]

    def fill(self, shape: Sequence[int], dtype: np.dtype, value: Any, stream: Stream) -> DeviceArray:
        return memory.fill(shape, dtype, value, stream)  # type: ignore[arg-type]

    def download(self, storage: DeviceArray) -> np.ndarray:
        return storage.to_host()

    def owns(self, storage: Any) -> bool:
        return isinstance(storage, DeviceArray)

    def overlaps(self, a: DeviceArray, b: DeviceArray) -> bool:
        return a.overlaps(b)

    def snapshot(self, storage: DeviceArray) -> DeviceArray:
        return memory.snapshot(storage)

    def restore(self, storage: DeviceArray, snapshot: DeviceArray) -> None:
        memory.restore(storage, snapshot)

    def prepare(self, compiled: CompiledVariant) -> CudaKernel:
        assert compiled.cubin is not None, "compiled for the device's arch (Backend.target)"
        # Programmatic dependent launch exists from sm_90 (griddepcontrol); before, the
        # kernel's wait is a no-op and the launch an ordinary one.
        early = compiled.dependent_launch and int(self.target.removeprefix("sm_").rstrip("af")) >= 90
        return CudaKernel(compiled.cubin.cubin, compiled.symbol, [p.type for p in compiled.params],
                          [p.name for p in compiled.params], programmatic=early,
                          reads_early=bool(compiled.early_reads))

    def launcher(self, runnable: CudaKernel, grid: tuple[int, int, int], params: ParamTemplate) -> CudaLauncher:
        return CudaLauncher(runnable, grid, params)


class CudaLauncher(Launcher):
    """One plan's launches of a loaded kernel, through parameter buffers of the plan's own.

    A buffer holds the shapes and strides, packed once; a launch writes the
    tensors' addresses and the scalars into one and calls ``cuLaunchKernel``
    (``cuLaunchKernelEx`` for a programmatic dependent; either copies the
    values) as ``CudaKernel.launch_packed`` does, with the memory of the tensors
    it may write and of those the kernel reads before its wait: the rule of
    early starts (``runtime/cuda/stream.py``).  Launches take a buffer from a free
    list and put it back after the call: ``list.pop`` is atomic, so no two
    launches (in other threads, or one re-entered from a finalizer) write the
    same buffer at once; a launch finding the list empty makes another buffer.

    Stream order (the safety contract of ``runtime/cuda``): work on the
    tensors enqueued on other streams comes first, and later work and host
    copies come after the launch.  Inside a capture the launch runs at replay:
    the graph orders its tensors when released, and across a capture's branches
    the runtime's ``CaptureOrder`` orders them before the launch is recorded.
    """

    def __init__(self, kernel: CudaKernel, grid: tuple[int, int, int], params: ParamTemplate):
        self.kernel, self.grid, self.template = kernel, grid, params
        self._call = (kernel, *grid)
        positions = [i for _, i in params.storage_slots]
        self._written = tuple(positions[k] for k in params.written)
        """Argument positions of the tensors a launch may write."""
        self._early = tuple(positions[k] for k in params.read_early) if kernel.plain is not None else None
        """Argument positions of the tensors the kernel reads before its wait, where it chooses its
        launch by them (``CudaKernel.plain``); ``None`` where it launches one way always."""
        self._free = [self._buffer()]

    def _buffer(self) -> _Buffer:
        layout, template = self.kernel.layout, self.template
        params = layout.new()
        layout.pack([0 if v is None else v for v in template.values], params)
        pointers = tuple((layout.pointer(params, pos), i) for pos, i in template.storage_slots)
        scalars = tuple((layout.scalar(params, pos), i) for pos, i in template.scalar_slots)
        return params.address, pointers, scalars, params

    def launch(self, args: Sequence[Any], stream: Stream, options: dict[str, Any]) -> None:
        kernel, x, y, z = self._call
        free = self._free
        try:
            buffer = free.pop()
        except IndexError:
            buffer = self._buffer()
        try:
            address, pointers, scalars, _ = buffer
            if stream.capturing:
                for view, i in pointers:
                    view.value = args[i]._array.ptr
            else:
                for view, i in pointers:
                    storage = args[i]._array
                    view.value = storage.ptr
                    if storage.stream is not stream:
                        # Rare: order the launch after the other streams' work, and
                        # later work after the launch (once for all the storages).
                        storages = self.template.storages(args)
                        _wait_for_other_streams(stream, storages)  # type: ignore[arg-type]
                        for each in storages:
                            each.stream = stream
            for write, i in scalars:
                write(args[i])
            written, early = self._written, self._early
            writes = ((args[written[0]]._array.span,) if len(written) == 1 else
                      tuple([args[i]._array.span for i in written]))
            reads = None if early is None else tuple([args[i]._array.span for i in early])
            enqueue, err = kernel.enqueue_recorded(x, y, z, stream, address, writes, reads)  # type: ignore[arg-type]
        finally:
            free.append(buffer)
        if err:
            raise kernel.failed(enqueue, err)

    def launch_at(self, addresses: Sequence[int], args: Sequence[Any], stream: CudaStream, writes: Spans,
                  reads: Spans | None) -> None:
        """``launch`` for storages known by their addresses alone (``addresses[k]``: storage slot
        ``k``'s, ``ParamTemplate.storage_slots`` order), all of them on ``stream`` already, so no
        other stream's work is waited for: a torch kernel op's warm path (torch tensors used on
        torch's current stream, ``runtime/torch/custom_op.py``).  The scalars are read from
        ``args`` as ``launch`` reads them; ``writes`` and ``reads`` are the address ranges of the
        storages at ``written`` and ``early`` (``launch`` takes them from the storages)."""
        kernel, x, y, z = self._call
        free = self._free
        try:
            buffer = free.pop()
        except IndexError:
            buffer = self._buffer()
        try:
            address, pointers, scalars, _ = buffer
            for (view, _), at in zip(pointers, addresses):
                view.value = at
            for write, i in scalars:
                write(args[i])
            enqueue, err = kernel.enqueue_recorded(x, y, z, stream, address, writes, reads)
        finally:
            free.append(buffer)
        if err:
            raise kernel.failed(enqueue, err)

    @property
    def written(self) -> tuple[int, ...]:
        """Argument positions of the tensors a launch may write."""
        return self._written

    @property
    def early(self) -> tuple[int, ...] | None:
        """Argument positions of the tensors the kernel reads before its wait, where it chooses its
        launch by them; ``None`` where it launches one way always."""
        return self._early

    def bind(self, args: Sequence[Any], options: dict[str, Any]) -> Callable[[Stream], None]:
        kernel, grid = self.kernel, self.grid
        storages = self.template.storages(args)
        params = kernel.packed(self.template.flat(_address, args))  # packed once, a buffer of its own
        writes = tuple(storages[k].span for k in self.template.written)
        reads = tuple(storages[k].span for k in self.template.read_early)

        def enqueue(stream: Stream) -> None:
            if not stream.capturing:
                for storage in storages:
                    if storage.stream is not stream:
                        _wait_for_other_streams(stream, storages)  # type: ignore[arg-type]
                        for each in storages:
                            each.stream = stream
                        break
            kernel.launch_packed(grid, params, stream, writes, reads)  # type: ignore[arg-type]

        return enqueue


_Buffer = tuple[int, tuple[tuple[ctypes.c_uint64, int], ...], tuple[tuple[Callable[[Any], None], int], ...], Parameters]
"""A launcher's parameter buffer: the ``kernelParams`` address, (view of a pointer parameter,
argument position) of each tensor, (writer of a scalar parameter, argument position) of each
scalar, and the ``Parameters`` they point into."""

_address = attrgetter("ptr")
"""What a pointer parameter gets for a tensor's memory."""


def _wait_for_other_streams(stream: CudaStream, storages: Sequence[DeviceArray]) -> None:
    """Make ``stream`` wait for the work enqueued on the storages' other streams."""
    waited: list[CudaStream] = []
    for storage in storages:
        other = storage.stream
        if other is not stream and other not in waited:
            waited.append(other)
            stream.wait(other.record())
