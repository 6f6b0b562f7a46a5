"""The CUDA backend: tensors in device memory, kernels JIT-compiled to cubins.

Compilation goes through the cubin cache (``backend/cache.py``) for the
device's architecture: a cubin built ahead of time for this arch (on another
machine, copied with ``SAFETILE_CACHE_DIR``) is used as it is; a miss runs
``tileiras`` if it is installed; with neither, one error says how to install
the toolchain or build the cache.  ``SAFETILE_SANITIZE=memcheck`` compiles
with ``tileiras --sanitize=memcheck`` (for compute-sanitizer runs).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.backend import cache
from safetile.backend.toolchain import ToolchainError

from ..backend import Backend
from ..launch import SANITIZE_ENV
from ..stream import Stream
from . import memory
from .device import Device
from .kernels import CudaKernel
from .memory import DeviceArray
from .stream import CudaStream



class MissingCubin(RuntimeError):
    """Neither the cache nor an installed ``tileiras`` can give a kernel's cubin."""


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

    def prepare(self, module: Any, entry_name: str, kernel: Any) -> CudaKernel:
        entry = cubin_for(module, self.device.arch, kernel_name=entry_name)
        from safetile.backend.interpreter import find_entry

        op = find_entry(module, entry_name)
        names = [arg.name_hint or f"arg{i}" for i, arg in enumerate(op.body.block.args)]
        return CudaKernel(entry.cubin, entry_name, list(op.function_type.inputs.data), names)

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


def cubin_for(module: Any, arch: str, kernel_name: str = "the kernel") -> cache.CacheEntry:
    """The cubin of ``module`` for ``arch``: from the cache, else built by ``tileiras``."""
    sanitize = os.environ.get(SANITIZE_ENV) or None
    found = cache.lookup(module, arch, sanitize=sanitize)
    if found is not None:
        return found
    try:
        return cache.compile_cubin(module, arch, sanitize=sanitize)
    except ToolchainError as err:
        raise MissingCubin(
            f"'{kernel_name}' for {arch} is not in the cubin cache ({cache.default_cache_dir()}) and "
            f"tileiras cannot build it: {err}.  Install the toolchain (pip install 'safetile[toolchain]'), "
            f"or build the cache ahead of time where it is installed (st.warm_up(kernel, specs, arch='{arch}') "
            f"with {cache.CACHE_ENV} set) and copy that folder here"
        ) from None
