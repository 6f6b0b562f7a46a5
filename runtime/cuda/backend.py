"""The CUDA backend: tensors in device memory, kernels JIT-compiled to cubins.

The compile driver builds each variant for the device's architecture
(``target``) through the cubin cache (``backend/cache.py``: a cubin built
ahead of time, a ``tileiras`` run, or one error saying how to get either);
this backend loads and launches it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.driver import CompiledVariant

from ..backend import Backend
from ..stream import Stream
from . import memory
from .device import Device
from .kernels import CudaKernel
from .memory import DeviceArray
from .stream import CudaStream



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

    def new_stream(self, name: str) -> CudaStream:
        return CudaStream(self.device, name)

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
        return CudaKernel(compiled.cubin.cubin, compiled.symbol, [p.type for p in compiled.params],
                          [p.name for p in compiled.params])

    def address(self, storage: DeviceArray) -> int:
        return storage.ptr

    def bind(self, storage: DeviceArray) -> int:
        return storage.ptr

    def launch(self, runnable: CudaKernel, grid: tuple[int, int, int], args: Sequence[Any],
               storages: Sequence[DeviceArray], stream: Stream, options: dict[str, Any]) -> None:
        if stream.capturing:
            # Runs at replay; the graph orders the tensors on its stream when released.
            runnable.launch(grid, args, stream)  # type: ignore[arg-type]
            return
        # Work on these tensors enqueued on other streams comes first ...
        for storage in storages:
            if storage.stream is not stream:
                _wait_for_other_streams(stream, storages)  # type: ignore[arg-type]
                break
        runnable.launch(grid, args, stream)  # type: ignore[arg-type]
        # ... and later work and host copies come after this launch.
        for storage in storages:
            storage.stream = stream  # type: ignore[assignment]

    def bind_launch(self, runnable: CudaKernel, grid: tuple[int, int, int], args: Sequence[Any],
                    storages: Sequence[DeviceArray], options: dict[str, Any]) -> Callable[[Stream], None]:
        params = runnable.packed(args)  # packed once: every enqueue launches the same values

        def enqueue(stream: Stream) -> None:
            if stream.capturing:
                runnable.launch_packed(grid, params, stream)  # type: ignore[arg-type]
                return
            for storage in storages:
                if storage.stream is not stream:
                    _wait_for_other_streams(stream, storages)  # type: ignore[arg-type]
                    for each in storages:
                        each.stream = stream  # type: ignore[assignment]
                    break
            runnable.launch_packed(grid, params, stream)  # type: ignore[arg-type]

        return enqueue


def _wait_for_other_streams(stream: CudaStream, storages: Sequence[DeviceArray]) -> None:
    """Make ``stream`` wait for the work enqueued on the storages' other streams."""
    waited: list[CudaStream] = []
    for storage in storages:
        other = storage.stream
        if other is not stream and other not in waited:
            waited.append(other)
            stream.wait(other.record())
