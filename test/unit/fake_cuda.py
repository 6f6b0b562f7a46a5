"""A stand-in for ``cuda.bindings.driver``: the CUDA backend's whole host path without a GPU.

    with fake_cuda() as fake:          # the runtime's backend is now a CudaBackend on it
        z = st.zeros((8,)).sync()      # device memory is host memory behind fake addresses
        ...
        fake.record(symbol, codes)     # from now on, launches of that kernel are recorded:
        fake.launches                  # what cuLaunchKernel (or cuLaunchKernelEx) was given

Every driver call the runtime makes (``runtime/cuda``) answers as cuda-python
does (a tuple: the ``CUresult``, then the values), so ``CudaBackend``,
``DeviceArray``, streams, events and ``CudaKernel`` run unchanged.  Memory
is real host memory (``cuMemAllocAsync`` allocates a ctypes buffer; copies
and memsets are ``ctypes.memmove``/``memset`` on those addresses), so
``Tensor.numpy()`` reads back what was uploaded.  Kernels do not run:
``cuLaunchKernel`` does nothing until ``record`` is called; then it records
the grid, stream and parameter *values* of each launch (decoded from
``kernelParams`` at the call, by the ``struct`` codes given for the
kernel), and stream waits are recorded too.  ``cuLaunchKernelEx`` takes
programmatic dependent launches (Hopper PDL) only: it refuses
(``CUDA_ERROR_INVALID_VALUE``) any config but block (1, 1, 1), no shared
memory and the one attribute ``PROGRAMMATIC_STREAM_SERIALIZATION`` = 1, and
records its launches and graph nodes as ``programmatic``.  Cubins are real
(``compile_variant`` for sm_90 through the cache: tileiras or a cache folder).

Stream capture builds a graph as the driver does: a launch on a capturing
stream is a node depending on that stream's last nodes; an event recorded on
a capturing stream carries them, and a stream waiting for it joins the
capture (a fork) or adds them (a join).  ``cuStreamEndCapture`` fails with
``CUDA_ERROR_STREAM_CAPTURE_UNJOINED`` if a node is not ordered before the
origin stream's end; the graph's nodes, each with its stream's priority, are
in ``fake.graphs[handle]``, and ``cuGraphInstantiate``'s flags in
``fake.instantiate_flags``.

Launches take the route the runtime takes on a GPU: through the C call of
``runtime/cuda/_launch.c``, which here calls a ctypes callback into
``cuLaunchKernel`` or ``cuLaunchKernelEx`` below (the latter reads the C
``CUlaunchConfig`` through ctypes structures laid out as cuda.h's).
``fake_cuda(launch="bindings")``: the cuda-python route, as where the
extension is not built (the bindings' config objects modelled by classes
below); ``launch=ADDRESS``: a C function standing in for the driver's
``cuLaunchKernel``, as bench/launch_path.py's no-op.

Used by the launch-path tests and by ``bench/launch_path.py`` (the Python
cost of a launch, measured without the driver).
"""

from __future__ import annotations

import ctypes
import enum
import itertools
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

ARCH_MAJOR, ARCH_MINOR = 9, 0
"""sm_90: the architecture cubins are built for."""
NAME = b"Fake H100 (no GPU)"


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_NOT_READY = 600
    CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904


class CUdevice_attribute(enum.IntEnum):  # noqa: N801 - the driver's names
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97


class CUmemPool_attribute(enum.IntEnum):  # noqa: N801
    CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4


class CUevent_flags(enum.IntEnum):  # noqa: N801
    CU_EVENT_DEFAULT = 0
    CU_EVENT_DISABLE_TIMING = 2


class CUstreamCaptureMode(enum.IntEnum):  # noqa: N801
    CU_STREAM_CAPTURE_MODE_RELAXED = 2


class CUgraphInstantiate_flags(enum.IntEnum):  # noqa: N801
    CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY = 8


class CUlaunchAttributeID(enum.IntEnum):  # noqa: N801
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6


# cuda-python's config objects of cuLaunchKernelEx, with the fields the runtime sets (slots: a
# misspelt field fails, as on the bindings' own classes).

class CUlaunchAttributeValue:  # noqa: N801
    __slots__ = ("programmaticStreamSerializationAllowed",)

    def __init__(self) -> None:
        self.programmaticStreamSerializationAllowed = 0


class CUlaunchAttribute:  # noqa: N801
    __slots__ = ("id", "value")

    def __init__(self) -> None:
        self.id: int = 0
        self.value = CUlaunchAttributeValue()


class CUlaunchConfig:  # noqa: N801
    __slots__ = ("gridDimX", "gridDimY", "gridDimZ", "blockDimX", "blockDimY", "blockDimZ", "sharedMemBytes",
                 "hStream", "attrs", "numAttrs")

    def __init__(self) -> None:
        self.gridDimX = self.gridDimY = self.gridDimZ = 0
        self.blockDimX = self.blockDimY = self.blockDimZ = 0
        self.sharedMemBytes = 0
        self.hStream: Any = 0
        self.attrs: list[CUlaunchAttribute] = []
        self.numAttrs = 0


# The same in C, as cuda.h lays them out (what runtime/cuda/_launch.c passes; its static asserts
# pin the same sizes and offsets).

class CLaunchAttributeValue(ctypes.Union):
    _fields_ = [("pad", ctypes.c_char * 64), ("programmaticStreamSerializationAllowed", ctypes.c_int),
                ("align", ctypes.c_void_p)]  # cuda.h's union holds pointers: 8-byte aligned


class CLaunchAttribute(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", CLaunchAttributeValue)]


class CLaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint), ("gridDimZ", ctypes.c_uint),
                ("blockDimX", ctypes.c_uint), ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(CLaunchAttribute)), ("numAttrs", ctypes.c_uint)]


assert (ctypes.sizeof(CLaunchAttributeValue), ctypes.sizeof(CLaunchAttribute), CLaunchAttribute.value.offset,
        ctypes.sizeof(CLaunchConfig), CLaunchConfig.hStream.offset, CLaunchConfig.attrs.offset,
        CLaunchConfig.numAttrs.offset) == (64, 72, 8, 56, 32, 40, 48), "cuda.h's layout"


LEAST_PRIORITY, GREATEST_PRIORITY = 0, -5
"""The stream priority range (an H100's)."""


_ATTRIBUTES = {
    CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: ARCH_MAJOR,
    CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: ARCH_MINOR,
    CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: 132,
    CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: 232448,
}

_OK = (CUresult.CUDA_SUCCESS,)

CU_LAUNCH_KERNEL = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7, ctypes.c_void_p,
                                    ctypes.c_void_p, ctypes.c_void_p)
"""The C type of ``cuLaunchKernel``."""
CU_LAUNCH_KERNEL_EX = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(CLaunchConfig), ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_void_p)
"""The C type of ``cuLaunchKernelEx``."""


@dataclass(frozen=True)
class Launch:
    """One recorded ``cuLaunchKernel`` or ``cuLaunchKernelEx``: the kernel's symbol, grid, stream
    handle and parameter values."""

    symbol: str
    grid: tuple[int, int, int]
    stream: Any
    params: tuple[Any, ...]
    thread: int
    """The calling thread (``threading.get_ident()``)."""
    programmatic: bool
    """Launched as a programmatic dependent (``cuLaunchKernelEx``)."""


@dataclass(frozen=True)
class Node:
    """A kernel node of a captured graph: its symbol, the stream it was launched on, the
    positions of the nodes it directly depends on and its priority (the stream's)."""

    symbol: str
    stream: int
    after: frozenset[int]
    priority: int
    programmatic: bool
    """Launched as a programmatic dependent: in a real graph its edge from the kernel before it on
    its stream is a programmatic edge (it may start while that kernel drains)."""


class Capture:
    """A capture in progress: its nodes and each stream's last nodes (what its next launch follows)."""

    def __init__(self, origin: int):
        self.origin = origin
        self.nodes: list[Node] = []
        self.ends: dict[int, frozenset[int]] = {origin: frozenset()}


def ordered_before(nodes: Sequence[Node], ends: frozenset[int]) -> set[int]:
    """The nodes that ``ends`` follow, themselves included."""
    seen: set[int] = set()
    todo = list(ends)
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(nodes[n].after)
    return seen


def reaches(nodes: Sequence[Node], first: int, then: int) -> bool:
    """Whether node ``then`` is ordered after node ``first`` (through any path)."""
    return first in ordered_before(nodes, frozenset({then}))


class FakeDriver:
    """The driver functions ``runtime/cuda`` calls, on host memory; kernels do not run."""

    CUresult = CUresult
    CUdevice_attribute = CUdevice_attribute
    CUmemPool_attribute = CUmemPool_attribute
    CUevent_flags = CUevent_flags
    CUstreamCaptureMode = CUstreamCaptureMode
    CUgraphInstantiate_flags = CUgraphInstantiate_flags
    CUlaunchAttributeID = CUlaunchAttributeID
    CUlaunchAttribute = CUlaunchAttribute
    CUlaunchConfig = CUlaunchConfig

    def __init__(self) -> None:
        self._handles = itertools.count(0x1000)
        self.memory: dict[int, ctypes.Array[ctypes.c_char]] = {}
        """Live allocations: address -> the host buffer behind it."""
        self.functions: dict[int, str] = {}
        """Function handle -> kernel symbol."""
        self.layouts: dict[str, tuple[str, ...]] = {}
        """Kernel symbol -> its parameters' ``struct`` codes (given to ``record``)."""
        self.launches: list[Launch] = []
        self.waits: list[tuple[Any, Any]] = []
        """(stream, event) of each ``cuStreamWaitEvent``, once recording."""
        self.recording = False
        self.during_launch: Callable[[], None] | None = None
        """Called by each recorded launch before it reads its parameters (to let other threads
        run there, say, or to launch again from inside a launch)."""
        self.graph_launches = 0
        self.captures: dict[int, Capture] = {}
        self.capture_lock = threading.Lock()
        """Stream handle -> the capture it records into."""
        self.event_ends: dict[int, tuple[Capture, frozenset[int]]] = {}
        """Event handle -> the capture and the nodes it was recorded after."""
        self.graphs: dict[int, list[Node]] = {}
        """Graph handle -> its nodes, in capture order."""
        self.instantiate_flags: list[int] = []
        """The flags of each ``cuGraphInstantiate``."""
        self.priorities: dict[int, int] = {}
        """Stream handle -> its priority, for streams made with one."""
        self.launch_error = CUresult.CUDA_SUCCESS
        """What ``cuLaunchKernel`` and ``cuLaunchKernelEx`` return (set it to make launches fail)."""
        self.c_launches = 0
        """Launches that came through the C route (``launch_kernel_address``, ``launch_kernel_ex_address``)."""
        self._callback = CU_LAUNCH_KERNEL(self._c_launch_kernel)
        self.launch_kernel_address: int = ctypes.cast(self._callback, ctypes.c_void_p).value or 0
        """A C function pointer to this driver's ``cuLaunchKernel`` (what libcuda's address is on a GPU)."""
        self._ex_callback = CU_LAUNCH_KERNEL_EX(self._c_launch_kernel_ex)
        self.launch_kernel_ex_address: int = ctypes.cast(self._ex_callback, ctypes.c_void_p).value or 0
        """The same for ``cuLaunchKernelEx``."""

    @staticmethod
    def cuuint64_t(value: int) -> int:  # noqa: N802
        return value

    def _handle(self) -> int:
        return next(self._handles)

    # -- errors, device, context ----------------------------------------------------

    def cuInit(self, flags: int) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    def cuGetErrorName(self, err: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, CUresult(err).name.encode()

    def cuGetErrorString(self, err: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, b"fake driver error"

    def cuDeviceGet(self, ordinal: int) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, ordinal

    def cuDevicePrimaryCtxRetain(self, device: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuCtxSetCurrent(self, context: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    def cuDeviceGetAttribute(self, attribute: Any, device: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, _ATTRIBUTES[attribute]

    def cuDeviceGetName(self, length: int, device: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, NAME.ljust(length, b"\0")

    def cuDeviceGetDefaultMemPool(self, device: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuMemPoolSetAttribute(self, pool: Any, attribute: Any, value: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    # -- memory --------------------------------------------------------------------

    def cuMemAllocAsync(self, nbytes: int, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        buffer = ctypes.create_string_buffer(nbytes)
        address = ctypes.addressof(buffer)
        self.memory[address] = buffer
        return CUresult.CUDA_SUCCESS, address

    def cuMemFreeAsync(self, address: int, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        del self.memory[int(address)]
        return _OK

    def _copy(self, dst: int, src: int, nbytes: int, stream: Any) -> tuple[Any, ...]:
        ctypes.memmove(int(dst), int(src), nbytes)
        return _OK

    cuMemcpyHtoDAsync = cuMemcpyDtoHAsync = cuMemcpyDtoDAsync = _copy  # noqa: N815

    def _memset(self, size: int, address: int, pattern: int, count: int) -> tuple[Any, ...]:
        chunk = pattern.to_bytes(size, "little")
        ctypes.memmove(int(address), chunk * count, size * count)
        return _OK

    def cuMemsetD8Async(self, address: int, pattern: int, count: int, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        return self._memset(1, address, pattern, count)

    def cuMemsetD16Async(self, address: int, pattern: int, count: int, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        return self._memset(2, address, pattern, count)

    def cuMemsetD32Async(self, address: int, pattern: int, count: int, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        return self._memset(4, address, pattern, count)

    # -- streams, events, graphs ------------------------------------------------------

    def cuStreamCreate(self, flags: int) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuCtxGetStreamPriorityRange(self) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, LEAST_PRIORITY, GREATEST_PRIORITY

    def cuStreamCreateWithPriority(self, flags: int, priority: int) -> tuple[Any, ...]:  # noqa: N802
        handle = self._handle()
        self.priorities[handle] = priority
        return CUresult.CUDA_SUCCESS, handle

    def cuStreamSynchronize(self, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    def cuStreamWaitEvent(self, stream: Any, event: Any, flags: int) -> tuple[Any, ...]:  # noqa: N802
        if self.recording:
            self.waits.append((stream, event))
        if int(event) in self.event_ends:
            capture, ends = self.event_ends[int(event)]
            with self.capture_lock:
                self.captures.setdefault(int(stream), capture)
            capture.ends[int(stream)] = capture.ends.get(int(stream), frozenset()) | ends
        return _OK

    def cuStreamBeginCapture(self, stream: Any, mode: Any) -> tuple[Any, ...]:  # noqa: N802
        with self.capture_lock:
            self.captures[int(stream)] = Capture(int(stream))
        return _OK

    def cuStreamEndCapture(self, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        # The driver is thread-safe, so is its stand-in: threads capture on their own streams at once.
        with self.capture_lock:
            capture = self.captures[int(stream)]
            for each in [s for s, c in self.captures.items() if c is capture]:
                del self.captures[each]
        if len(ordered_before(capture.nodes, capture.ends[capture.origin])) < len(capture.nodes):
            return CUresult.CUDA_ERROR_STREAM_CAPTURE_UNJOINED, None
        handle = self._handle()
        self.graphs[handle] = capture.nodes
        return CUresult.CUDA_SUCCESS, handle

    def cuGraphInstantiate(self, graph: Any, flags: int) -> tuple[Any, ...]:  # noqa: N802
        self.instantiate_flags.append(int(flags))
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuGraphGetNodes(self, graph: Any, count: int) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, None, len(self.graphs.get(int(graph), ()))

    def cuGraphLaunch(self, graph: Any, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        self.graph_launches += 1
        return _OK

    def cuGraphExecDestroy(self, graph: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    cuGraphDestroy = cuGraphExecDestroy  # noqa: N815

    def cuEventCreate(self, flags: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuEventRecord(self, event: Any, stream: Any) -> tuple[Any, ...]:  # noqa: N802
        capture = self.captures.get(int(stream))
        if capture is None:
            self.event_ends.pop(int(event), None)
        else:
            self.event_ends[int(event)] = capture, capture.ends[int(stream)]
        return _OK

    def cuEventQuery(self, event: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    def cuEventSynchronize(self, event: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    def cuEventElapsedTime(self, start: Any, end: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, 0.0

    def cuEventDestroy(self, event: Any) -> tuple[Any, ...]:  # noqa: N802
        return _OK

    # -- kernels ------------------------------------------------------------------------

    def cuModuleLoadData(self, image: Any) -> tuple[Any, ...]:  # noqa: N802
        return CUresult.CUDA_SUCCESS, self._handle()

    def cuModuleGetFunction(self, module: Any, symbol: bytes) -> tuple[Any, ...]:  # noqa: N802
        handle = self._handle()
        self.functions[handle] = symbol.decode()
        return CUresult.CUDA_SUCCESS, handle

    def record(self, symbol: str, codes: Sequence[str]) -> None:
        """Record launches (and stream waits) from now on; ``symbol``'s parameters are
        decoded by ``codes`` (``struct`` codes in order: ``CudaKernel.layout.codes``)."""
        self.layouts[symbol] = tuple(codes)
        self.recording = True

    def _node(self, f: Any, stream: Any, programmatic: bool) -> None:
        """A launch on a capturing stream is a node after the stream's last ones."""
        capture = self.captures.get(int(stream))
        if capture is not None:
            priority = self.priorities.get(int(stream), LEAST_PRIORITY)
            capture.nodes.append(Node(self.functions[int(f)], int(stream), capture.ends[int(stream)], priority,
                                      programmatic))
            capture.ends[int(stream)] = frozenset({len(capture.nodes) - 1})

    def cuLaunchKernel(self, f: Any, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,  # noqa: N802
                       shared: int, stream: Any, params: Any, extra: Any) -> tuple[Any, ...]:
        self._node(f, stream, False)
        if self.recording:
            self._record(f, (gx, gy, gz), (bx, by, bz, shared, extra), stream, params, False)
        return (self.launch_error,)

    def _c_launch_kernel(self, f: int | None, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                         shared: int, stream: int | None, params: int | None, extra: int | None) -> int:
        self.c_launches += 1
        self._node(f or 0, stream or 0, False)
        if self.recording:  # a C NULL arrives as None
            self._record(f or 0, (gx, gy, gz), (bx, by, bz, shared, extra or 0), stream or 0, params or 0, False)
        return int(self.launch_error)

    def cuLaunchKernelEx(self, config: CUlaunchConfig, f: Any, params: Any,  # noqa: N802
                         extra: Any) -> tuple[Any, ...]:
        given = config.attrs[:config.numAttrs]
        attributes = ([(int(a.id), a.value.programmaticStreamSerializationAllowed) for a in given]
                      if len(given) == config.numAttrs else None)
        return (self._launch_ex(f, (config.gridDimX, config.gridDimY, config.gridDimZ),
                                (config.blockDimX, config.blockDimY, config.blockDimZ, config.sharedMemBytes),
                                attributes, int(config.hStream), params, extra),)

    def _c_launch_kernel_ex(self, config: Any, f: int | None, params: int | None, extra: int | None) -> int:
        self.c_launches += 1
        c = config.contents
        attributes = ([(c.attrs[i].id, c.attrs[i].value.programmaticStreamSerializationAllowed)
                       for i in range(c.numAttrs)] if c.attrs else None)  # a NULL attrs is falsy
        return int(self._launch_ex(f or 0, (c.gridDimX, c.gridDimY, c.gridDimZ),
                                   (c.blockDimX, c.blockDimY, c.blockDimZ, c.sharedMemBytes),
                                   attributes, c.hStream or 0, params or 0, extra or 0))

    def _launch_ex(self, f: Any, grid: tuple[int, int, int], block_shared: tuple[int, int, int, int],
                   attributes: list[tuple[int, int]] | None, stream: Any, params: Any, extra: Any) -> CUresult:
        """``cuLaunchKernelEx`` of the runtime's one kind: a programmatic dependent with block
        (1, 1, 1) and no shared memory; any other config is refused (``attributes``: (id, value)
        of each, ``None`` where they cannot be read)."""
        programmatic = [(CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, 1)]
        if block_shared != (1, 1, 1, 0) or attributes != programmatic:
            return CUresult.CUDA_ERROR_INVALID_VALUE
        self._node(f, stream, True)
        if self.recording:
            self._record(f, grid, (*block_shared, extra), stream, params, True)
        return self.launch_error

    def _record(self, f: Any, grid: tuple[int, int, int], rest: tuple[Any, ...], stream: Any, params: Any,
                programmatic: bool) -> None:
        assert rest == (1, 1, 1, 0, 0), "block (1, 1, 1), no shared memory, no extra"
        if self.during_launch is not None:
            self.during_launch()
        symbol = self.functions[int(f)]
        codes = self.layouts.get(symbol)
        assert codes is not None, f"no parameter codes given for '{symbol}' (FakeDriver.record)"
        pointers = ctypes.cast(int(params), ctypes.POINTER(ctypes.c_void_p))
        values = tuple(struct.unpack(code, ctypes.string_at(pointers[i], struct.calcsize(code)))[0]
                       for i, code in enumerate(codes))
        self.launches.append(Launch(symbol, grid, stream, values, threading.get_ident(), programmatic))


@contextmanager
def fake_cuda(launch: str | int = "c", launch_ex: int | None = None) -> Iterator[FakeDriver]:
    """Run the runtime on a ``CudaBackend`` over a ``FakeDriver`` (restored on exit).

    ``launch``: ``"c"`` (the C calls into the stand-in), ``"bindings"`` (the stand-in's
    ``cuLaunchKernel`` and ``cuLaunchKernelEx`` called as cuda-python's) or the address of a C
    ``cuLaunchKernel``; ``launch_ex``: that of a C ``cuLaunchKernelEx`` (default: the C call into
    the stand-in's).
    """
    from safetile.runtime import backend
    from safetile.runtime.cuda import driver
    from safetile.runtime.cuda.backend import CudaBackend

    fake = FakeDriver()
    address = {"c": fake.launch_kernel_address, "bindings": None}.get(launch, launch)  # type: ignore[call-overload]
    ex_address = None if launch == "bindings" else launch_ex or fake.launch_kernel_ex_address
    saved = driver._driver, backend._current, driver.cu_launch_kernel_address, driver.cu_launch_kernel_ex_address
    driver._driver = fake  # type: ignore[assignment]
    driver.cu_launch_kernel_address = lambda: address  # type: ignore[assignment]
    driver.cu_launch_kernel_ex_address = lambda: ex_address  # type: ignore[assignment]
    try:
        backend._current = CudaBackend()
        yield fake
    finally:
        (driver._driver, backend._current, driver.cu_launch_kernel_address,
         driver.cu_launch_kernel_ex_address) = saved
