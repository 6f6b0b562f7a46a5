"""Backends: which machine runs the kernels, and the interface each provides.

Two backends: ``cuda`` (an NVIDIA GPU through cuda-python,
``runtime/cuda/``) and ``cpu`` (the numpy interpreter, ``runtime/cpu.py``).
The GPU is used wherever cuda-python finds a device; ``SAFETILE_BACKEND=cpu``
or ``=cuda`` forces one (forcing ``cuda`` without a GPU is an error saying
why).  The choice is announced once per process on stderr.

A backend owns the memory of the tensors it makes (its *storage*: a numpy
array on the CPU, a ``DeviceArray`` on the GPU), its streams, and how a
compiled kernel is made runnable and launched.
"""

from __future__ import annotations

import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.driver import CompiledVariant

from .stream import Stream

ENV = "SAFETILE_BACKEND"
NAMES = {"cpu": "cpu", "gpu": "cuda", "cuda": "cuda"}


class Backend(ABC):
    """What the runtime needs of a machine."""

    name: str
    default_stream: Stream
    target: str | None
    """What the compile driver builds for this machine: an arch (``"sm_90"``:
    a cubin) or None (the lowered IR, for the interpreter)."""
    device_name: str
    """The machine's model (``NVIDIA H100 80GB HBM3``): what a tuning result was measured on."""
    shared_memory_per_block: int | None
    """The most shared memory a kernel may use, in bytes (None: no such limit)."""

    @abstractmethod
    def describe(self) -> str:
        """One line naming the machine (printed when the backend is chosen)."""

    @abstractmethod
    def new_stream(self, name: str) -> Stream: ...

    @abstractmethod
    def upload(self, array: np.ndarray, stream: Stream) -> Any:
        """New storage holding a copy of the C-contiguous ``array``."""

    @abstractmethod
    def fill(self, shape: Sequence[int], dtype: np.dtype, value: Any, stream: Stream) -> Any:
        """New C-contiguous storage of ``shape`` with every element ``value`` (a numpy scalar)."""

    @abstractmethod
    def download(self, storage: Any) -> np.ndarray:
        """A host copy of ``storage`` (waits for the work writing it)."""

    @abstractmethod
    def owns(self, storage: Any) -> bool:
        """Whether ``storage`` is memory of this backend."""

    @abstractmethod
    def overlaps(self, a: Any, b: Any) -> bool:
        """Whether two storages of this backend may share memory."""

    @abstractmethod
    def address(self, storage: Any) -> int:
        """The address of a storage's first element."""

    @abstractmethod
    def snapshot(self, storage: Any) -> Any:
        """A copy of the memory ``storage`` spans (after the work writing it), for ``restore``."""

    @abstractmethod
    def restore(self, storage: Any, snapshot: Any) -> None:
        """Put ``snapshot`` back into ``storage``'s memory, ordered after the work using it."""

    @abstractmethod
    def prepare(self, compiled: CompiledVariant) -> Any:
        """The runnable form of a compiled variant (built for ``target``)."""

    @abstractmethod
    def bind(self, storage: Any) -> Any:
        """What a kernel's pointer parameter gets for ``storage`` (its address on the GPU)."""

    @abstractmethod
    def launch(self, runnable: Any, grid: tuple[int, int, int], args: Sequence[Any], storages: Sequence[Any],
               stream: Stream, options: dict[str, Any]) -> None:
        """Enqueue one launch on ``stream``: ``args`` follow the ABI (pointers bound by
        ``bind``), ``storages`` are the tensors' memory."""

    def bind_launch(self, runnable: Any, grid: tuple[int, int, int], args: Sequence[Any], storages: Sequence[Any],
                    options: dict[str, Any]) -> Callable[[Stream], None]:
        """A function enqueueing this same launch on a stream, as often as called."""
        return lambda stream: self.launch(runnable, grid, args, storages, stream, options)


_current: Backend | None = None


def select_backend() -> str:
    """The name of the backend in use (``"cuda"`` or ``"cpu"``), choosing it the first time."""
    return current_backend().name


def current_backend() -> Backend:
    """The backend in use, chosen (and announced) on first use."""
    global _current
    if _current is None:
        _current = _choose()
        print(f"safetile: {_current.describe()}", file=sys.stderr)
    return _current


def _choose() -> Backend:
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted and wanted not in NAMES:
        raise ValueError(f"{ENV}={wanted!r}: expected one of cpu, cuda (or gpu)")
    if NAMES.get(wanted) == "cpu":
        from .cpu import CpuBackend

        return CpuBackend(f"{ENV}={wanted}")
    from .cuda.driver import NoGpu

    try:
        from .cuda.backend import CudaBackend

        return CudaBackend()
    except NoGpu as err:
        if wanted:
            raise RuntimeError(f"{ENV}={wanted} but there is no usable GPU: {err}; use {ENV}=cpu") from None
        from .cpu import CpuBackend

        return CpuBackend(f"no GPU: {err}")
