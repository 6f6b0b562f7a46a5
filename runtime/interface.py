"""The interface each backend provides: ``Backend``, its ``Launcher``s and their ``ParamTemplate``.

A backend owns the memory of the tensors it makes (its *storage*: a numpy
array on the CPU, a ``DeviceArray`` on the GPU), its streams, and how a
compiled kernel is made runnable and launched.  The backends (``cpu.py``,
``cuda/backend.py``) implement this module; ``backend.py`` picks one of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from safetile.driver import CompiledVariant

from .stream import Stream


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
    def new_stream(self, name: str, ahead: bool = False) -> Stream:
        """A new stream; ``ahead``: where its work and other streams' both wait for the device,
        its own is started first (the CUDA backend's greatest stream priority)."""

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
    def snapshot(self, storage: Any) -> Any:
        """A copy of the memory ``storage`` spans (after the work writing it), for ``restore``."""

    @abstractmethod
    def restore(self, storage: Any, snapshot: Any) -> None:
        """Put ``snapshot`` back into ``storage``'s memory, ordered after the work using it."""

    @abstractmethod
    def prepare(self, compiled: CompiledVariant) -> Any:
        """The runnable form of a compiled variant (built for ``target``)."""

    @abstractmethod
    def launcher(self, runnable: Any, grid: tuple[int, int, int], params: ParamTemplate) -> Launcher:
        """How one launch plan runs here: ``runnable`` on ``grid`` with parameters laid out as ``params``."""


class Launcher(ABC):
    """One launch plan on a backend: the kernel, the grid and the parameter layout fixed.

    ``args`` are a launch's arguments, checked and moved by the runtime: at the
    plan's storage slots tensor handles, whose memory is ``arg._array``, at its
    scalar slots the scalars.  A launcher may be called from several threads
    at once.
    """

    @abstractmethod
    def launch(self, args: Sequence[Any], stream: Stream, options: dict[str, Any]) -> None:
        """Enqueue one launch on ``stream``."""

    @abstractmethod
    def bind(self, args: Sequence[Any], options: dict[str, Any]) -> Callable[[Stream], None]:
        """A function enqueueing this same launch (these tensors, these scalars) on a stream, as often as called."""


@dataclass(frozen=True)
class ParamTemplate:
    """A plan's flat kernel parameters (the launch ABI, docs/abi.md): the shapes and
    strides, fixed by the plan, in place; what each launch supplies, by slot."""

    values: tuple[Any, ...]
    """Every parameter, ``None`` where a launch fills it in."""
    storage_slots: tuple[tuple[int, int], ...]
    """(parameter position, argument position) of each tensor's memory."""
    scalar_slots: tuple[tuple[int, int], ...]
    """(parameter position, argument position) of each scalar."""
    written: tuple[int, ...]
    """The storages a launch may write, as indices into the order of ``storage_slots``: the
    ``st.Mut``/``st.MutMapped`` partitions and the raw pointers (``st.Ref`` tensors are read only)."""
    read_early: tuple[int, ...]
    """The storages the kernel reads before its grid-dependency wait (``CompiledVariant.early_reads``),
    as indices into the order of ``storage_slots``: a launch may start early, while the kernel before
    it drains, only where that kernel writes none of their memory (``runtime/cuda/stream.py``)."""

    def storages(self, args: Sequence[Any]) -> list[Any]:
        """The memory of a launch's tensor arguments, in the order of ``storage_slots``."""
        return [args[i]._array for _, i in self.storage_slots]

    def flat(self, bind: Callable[[Any], Any], args: Sequence[Any]) -> list[Any]:
        """The parameters of one launch, each tensor's memory as ``bind(storage)`` (its address on the GPU)."""
        flat = list(self.values)
        for pos, i in self.storage_slots:
            flat[pos] = bind(args[i]._array)
        for pos, i in self.scalar_slots:
            flat[pos] = args[i]
        return flat
