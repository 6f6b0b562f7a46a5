"""CUDA streams, events and graphs (captured recordings)."""

from __future__ import annotations

from typing import Any

from ..stream import Event, Recording, Stream
from .device import Device
from .driver import call, error, load


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
            self.handle = call(driver.cuStreamCreateWithPriority, 0, greatest)
        else:
            self.handle = call(driver.cuStreamCreate, 0)
        self.address = int(self.handle)
        """The handle as an integer, as launches pass it."""
        self.deferred_frees: list[int] = []
        """Memory released during a capture, freed once the capture ends."""

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
