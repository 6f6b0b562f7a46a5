"""CUDA streams, events and graphs (captured recordings).

Early starts.  A kernel compiled with early reads (``CompiledVariant.early_reads``:
tensors it reads before its grid-dependency wait, its weights) is launched as a
programmatic dependent, which may start while the kernel before it on the stream
drains, only if the work enqueued just before it on the stream is one of our
kernel launches and writes none of the memory it reads early.  That suffices: an
early start overlaps only the kernel just before it, and that kernel let it start
only after its own wait had returned, when all work before that kernel was done.
Any other work just before (none, a copy, a memset, an allocation or a free, an
event recorded or waited for, a graph replay, whatever another library enqueued
on the stream) is unknown, and the launch is then an ordinary ``cuLaunchKernel``,
for which the kernel's wait is a no-op and its early reads come after all the
work before it.  A kernel without early reads touches no memory before its wait
and is a programmatic dependent whatever came before (``runtime/cuda/kernels.py``).

``CudaStream.last_writes`` is what the rule reads: the address ranges the last
work enqueued may write, or ``None`` where that work is unknown.  Every kernel
launch passes the stream as ``address``, and chooses its launch, enqueues it and
records its writes while holding the stream's ``lock`` (one step, whatever the
threads); every other use of the stream takes ``handle``, and reading ``handle``
sets ``last_writes`` to ``None``: the reader may enqueue anything.  A handle read
once and kept (``torch.cuda.ExternalStream(int(stream.handle))``) is the FFI
edge: work enqueued through it later is not seen, and must not write what a later
launch reads early without the stream's handle being read again in between.
"""

from __future__ import annotations

import threading
from typing import Any

from ..stream import Event, Recording, Stream
from .device import Device
from .driver import call, error, load

Spans = tuple[tuple[int, int], ...]
"""Address ranges ``(start, end)``, half-open: what a launch may write, or what it reads before its wait."""


class CudaEvent(Event):
    """An event recorded on a stream; without ``timing`` it only marks completion
    (cheaper to record and to wait for)."""

    def __init__(self, device: Device, stream: CudaStream, timing: bool = False):
        driver = load()
        self._device = device
        flags = driver.CUevent_flags.CU_EVENT_DEFAULT if timing else driver.CUevent_flags.CU_EVENT_DISABLE_TIMING
        self.handle = call(driver.cuEventCreate, flags)
        call(driver.cuEventRecord, self.handle, stream.handle)

    def done(self) -> bool:
        driver = load()
        err, = driver.cuEventQuery(self.handle)
        if err == driver.CUresult.CUDA_ERROR_NOT_READY:
            return False
        if err:
            raise error(driver.cuEventQuery, err)
        return True

    def wait(self) -> None:
        self._device.make_current()  # also called from worker threads (wait_async)
        call(load().cuEventSynchronize, self.handle)

    def elapsed_ms(self, end: Event) -> float:
        assert isinstance(end, CudaEvent), "events of one backend"
        end.wait()
        return float(call(load().cuEventElapsedTime, self.handle, end.handle))

    def __del__(self) -> None:
        try:
            load().cuEventDestroy(self.handle)
        except Exception:  # interpreter shutdown: the driver may be gone
            pass


class CudaGraph(Recording):
    """An instantiated CUDA graph of the work captured on a stream; ``node_priorities``: each
    kernel runs at the priority of the stream it was captured on (a capture with branches:
    the main line ahead of them), not at that of the stream it is replayed on."""

    def __init__(self, graph: Any, node_priorities: bool = False):
        driver = load()
        self._graph = graph
        flags = driver.CUgraphInstantiate_flags.CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY if node_priorities else 0
        self._exec = call(driver.cuGraphInstantiate, graph, flags)
        nodes = call(driver.cuGraphGetNodes, graph, 0)
        self.nodes: int = int(nodes[1]) if isinstance(nodes, tuple) else int(nodes)
        """The number of nodes (kernel launches and copies) in the graph."""

    def replay(self, stream: Stream) -> None:
        if self._exec is None:
            raise RuntimeError("this CUDA graph was closed")
        call(load().cuGraphLaunch, self._exec, stream.handle)  # type: ignore[attr-defined]

    def close(self) -> None:
        if self._exec is not None:
            driver = load()
            call(driver.cuGraphExecDestroy, self._exec)
            call(driver.cuGraphDestroy, self._graph)
            self._exec = None


class CudaStream(Stream):
    """A CUDA stream that synchronises with the legacy default stream (so that
    work torch or CuPy put there is ordered with ours); ``ahead``: at the device's
    greatest priority (the default is its least)."""

    def __init__(self, device: Device, name: str = "stream", ahead: bool = False):
        driver = load()
        self.name = name
        self.device = device
        self.capturing = False
        if ahead:
            _, greatest = call(driver.cuCtxGetStreamPriorityRange)
            self._handle = call(driver.cuStreamCreateWithPriority, 0, greatest)
        else:
            self._handle = call(driver.cuStreamCreate, 0)
        self.address = int(self._handle)
        """The handle as an integer, as kernel launches pass it (and only they: they record
        ``last_writes``)."""
        self.last_writes: Spans | None = None
        """The address ranges ``(start, end)`` the work enqueued last may write where it is one
        of our kernel launches; ``None`` where it is anything else or nothing (the module doc)."""
        self.lock = threading.RLock()
        """Held by a kernel launch from choosing how to launch to recording ``last_writes``.
        Re-entrant: a launch made on this thread inside a launch (by a finalizer) goes first;
        it cannot write what the outer launch reads early, since that launch holds those tensors."""
        self.deferred_frees: list[int] = []
        """Memory released during a capture, freed once the capture ends."""

    @property
    def handle(self) -> Any:
        """The ``CUstream``, for all work but our kernel launches: reading it makes the last
        work unknown (``last_writes = None``), as the reader may enqueue anything."""
        self.last_writes = None
        return self._handle

    def last_work_spares(self, reads: Spans) -> bool:
        """Whether the work enqueued last is one of our kernel launches writing none of the
        address ranges ``reads``: then a kernel reading them before its wait may start early
        (the caller holds ``lock``)."""
        writes = self.last_writes
        if writes is None:
            return False
        return not any(start < high and low < end for start, end in writes for low, high in reads)

    def synchronize(self) -> None:
        call(load().cuStreamSynchronize, self.handle)

    def record(self, timing: bool = False) -> CudaEvent:
        return CudaEvent(self.device, self, timing)

    def wait(self, event: CudaEvent) -> None:
        """Make later work on this stream wait for ``event`` (the host does not wait)."""
        call(load().cuStreamWaitEvent, self.handle, event.handle, 0)

    def begin_capture(self) -> None:
        driver = load()
        if self.capturing:
            raise RuntimeError(f"{self!r} is already capturing")
        mode = driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED
        call(driver.cuStreamBeginCapture, self.handle, mode)
        self.capturing = True

    def end_capture(self) -> CudaGraph:
        driver = load()
        if not self.capturing:
            raise RuntimeError(f"{self!r} is not capturing")
        self.capturing = False
        branched, self.capture_order = self.capture_order is not None, None
        graph = call(driver.cuStreamEndCapture, self.handle)
        frees, self.deferred_frees = self.deferred_frees, []
        for ptr in frees:
            call(driver.cuMemFreeAsync, ptr, self.handle)
        return CudaGraph(graph, node_priorities=branched)

    def free(self, ptr: int) -> None:
        """Return ``ptr`` to the pool once the work enqueued so far is done."""
        if self.capturing:
            self.deferred_frees.append(ptr)
        else:
            call(load().cuMemFreeAsync, ptr, self.handle)


class ForeignStream(CudaStream):
    """A stream another library made and enqueues on (torch's current stream): wrapped, not owned.

    Launches of torch tensors run on it (docs/torch.md).  The other library's work between two
    of our launches is never seen here, so ``last_writes`` stays unknown and no launch reading
    memory before its grid-dependency wait starts early on it (the rule of the module doc).
    Nothing destroys the handle: its owner does.
    """

    def __init__(self, device: Device, handle: int, name: str = "foreign"):  # noqa: D107 - no stream is created
        self.name = name
        self.device = device
        self.capturing = False
        self._handle = handle
        self.address = int(handle)
        self.last_writes = None
        self.lock = threading.RLock()
        self.deferred_frees = []

    def last_work_spares(self, reads: Spans) -> bool:
        return False


_foreign: dict[tuple[int, int], ForeignStream] = {}
"""(device ordinal, handle) -> its wrapper: one object per stream, so that tensors imported on it
compare their ``stream`` by identity as the launcher does (``storage.stream is not stream``)."""
_foreign_lock = threading.Lock()


def foreign_stream(device: Device, handle: int, name: str = "foreign") -> ForeignStream:
    """The wrapper of another library's stream ``handle`` on ``device`` (the same object for one handle)."""
    key = (device.ordinal, int(handle))
    found = _foreign.get(key)
    if found is None:
        with _foreign_lock:
            found = _foreign.setdefault(key, ForeignStream(device, int(handle), name))
    return found
