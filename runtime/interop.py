"""Sharing memory with other array libraries: DLPack and the CUDA Array Interface.

Export (no copy): ``Tensor.__dlpack__`` / ``__dlpack_device__`` (``to_dlpack``,
``dlpack_device``) and ``Tensor.__cuda_array_interface__``, so that
``np.from_dlpack(t)``, ``torch.from_dlpack(t)``, ``cupy.asarray(t)`` or
``jnp.from_dlpack(t)`` see the tensor's memory.  Import (no copy where the
layout allows, strides kept): ``from_dlpack(obj, dtype=None)`` for anything
with ``__dlpack__`` (numpy, torch, CuPy, JAX arrays), with
``__cuda_array_interface__`` (CuPy, Numba, torch) or a DLPack capsule;
``as_tensor(obj)`` also passes a safetile ``Tensor`` through.  At the launch
boundary a torch tensor needs no import (``import_torch_arguments``, called
by ``launch``): it is shared without a copy, read from its own attributes (as
DLPack would describe it, with the same checks), and given back as itself
(docs/torch.md).

This is an FFI edge, where the runtime's ownership checks stop (as the cuTile
Rust paper says of foreign interfaces): the memory is shared, and what the
other library does with it -- writing it while a launch reads it, freeing or
resizing it -- is invisible to safetile.  Inside safetile an imported tensor is
an ordinary handle (moved by launches, checked for overlap with the other
arguments of a launch); outside, keeping the two sides ordered is the
caller's job.

The DLPack structures are built and read with ``ctypes`` (``dlpack.h``,
DLPack 1.1: versioned ``dltensor_versioned`` capsules and legacy
``dltensor`` ones).
"""

from __future__ import annotations

import ctypes
import datetime
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from safetile.frontend.dsl import (
    DType,
    bf16,
    bool_,
    f8e4m3fn,
    f8e5m2,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    tf32,
    u8,
    u16,
    u32,
    u64,
)

from .backend import Backend, current_backend
from .tensor import Tensor, export_with, numpy_dtype

if TYPE_CHECKING:
    from .cuda.stream import CudaStream
    from .stream import Stream

# -- dlpack.h -------------------------------------------------------------------

DLPACK_VERSION = (1, 1)
"""The DLPack version of these structures (1.1 added the FP8 type codes)."""

kDLCPU, kDLCUDA, kDLCUDAHost = 1, 2, 3
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
kDLFloat8_e4m3fn, kDLFloat8_e5m2 = 10, 12
READ_ONLY = 1 << 0
"""``DLPACK_FLAG_BITMASK_READ_ONLY`` of ``DLManagedTensorVersioned.flags``."""


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


_VoidCallback = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
"""``void (*)(void *)``: a managed tensor's deleter, a capsule's destructor."""


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _VoidCallback)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", _VoidCallback),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


Managed = DLManagedTensor | DLManagedTensorVersioned

# Capsule names.  PyCapsule keeps a pointer to its name, so these bytes must
# live as long as the module.
_LEGACY, _LEGACY_USED = b"dltensor", b"used_dltensor"
_VERSIONED, _VERSIONED_USED = b"dltensor_versioned", b"used_dltensor_versioned"

CapsuleType = type(datetime.datetime_CAPI)
"""``PyCapsule`` (``types.CapsuleType`` from Python 3.13 on)."""

# Private prototypes of the capsule API (setting argtypes on ctypes.pythonapi
# would change them for every user of it).  Capsules are passed by address:
# the destructor gets a capsule whose reference count is already zero, which
# must not be turned back into a Python object.
_api = ctypes.pythonapi
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, _VoidCallback)(
    ("PyCapsule_New", _api))
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_capsule_set_name = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_SetName", _api))
_error_occurred = ctypes.PYFUNCTYPE(ctypes.c_void_p)(("PyErr_Occurred", _api))


# -- element types ----------------------------------------------------------------

_TO_DLPACK: dict[DType, tuple[int, int]] = {
    i8: (kDLInt, 8), i16: (kDLInt, 16), i32: (kDLInt, 32), i64: (kDLInt, 64),
    u8: (kDLUInt, 8), u16: (kDLUInt, 16), u32: (kDLUInt, 32), u64: (kDLUInt, 64),
    f16: (kDLFloat, 16), f32: (kDLFloat, 32), f64: (kDLFloat, 64), bf16: (kDLBfloat, 16),
    f8e4m3fn: (kDLFloat8_e4m3fn, 8), f8e5m2: (kDLFloat8_e5m2, 8), bool_: (kDLBool, 8),
    tf32: (kDLFloat, 32),  # tf32 lives in f32 storage; DLPack has no tf32
}
"""DLPack ``(code, bits)`` of each element type (lanes are always 1)."""

_FROM_DLPACK: dict[tuple[int, int], DType] = {v: k for k, v in _TO_DLPACK.items() if k is not tf32}

_CODE_PREFIX = {kDLInt: "int", kDLUInt: "uint", kDLFloat: "float", kDLBfloat: "bfloat", kDLComplex: "complex"}
_CODE_NAME = {kDLBool: "bool", kDLFloat8_e4m3fn: "float8_e4m3fn", kDLFloat8_e5m2: "float8_e5m2"}
_NUMPY_KIND_CODE = {"b": kDLBool, "i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}
_SUPPORTED_TYPES = "f16, bf16, f32, f64, f8e4m3fn, f8e5m2, i8-i64, u8-u64, bool"


def _dlpack_type_name(code: int, bits: int, lanes: int) -> str:
    """``float32``, ``bfloat16``, ``uint8x4``...: a DLPack element type in words."""
    if code in _CODE_NAME:
        name = _CODE_NAME[code]
    elif code in _CODE_PREFIX:
        name = f"{_CODE_PREFIX[code]}{bits}"
    else:
        name = f"DLPack type code {code} ({bits} bits)"
    return name if lanes == 1 else f"{name}x{lanes}"


# -- what an import sees ----------------------------------------------------------


@dataclass(frozen=True)
class _Buffer:
    """A producer's memory as an import reads it (from a capsule or a CUDA array interface)."""

    ptr: int
    """The address of element ``(0, ..., 0)`` (DLPack's ``data + byte_offset``)."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    """In elements."""
    code: int | None
    """DLPack type code (``None``: a numpy type DLPack has no code for)."""
    bits: int
    type_name: str
    device: tuple[int, int]
    """DLPack ``(device_type, device_id)``."""
    readonly: bool


def _compact_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def _element_type(buffer: _Buffer, requested: DType | None) -> DType:
    """The element type of an import: ``requested`` (same width), else the buffer's own."""
    if requested is not None:
        if not isinstance(requested, DType):
            raise TypeError(f"dtype= takes a safetile element type (st.bf16...), got {requested!r}")
        width = numpy_dtype(requested).itemsize * 8
        if width != buffer.bits:
            raise TypeError(
                f"cannot view {buffer.type_name} elements ({buffer.bits} bits) as {requested.name} "
                f"({width} bits): dtype= reinterprets memory of the same width"
            )
        return requested
    found = _FROM_DLPACK.get((buffer.code, buffer.bits)) if buffer.code is not None else None
    if found is None:
        raise TypeError(
            f"no safetile element type for {buffer.type_name} (supported: {_SUPPORTED_TYPES}); "
            "dtype= reinterprets elements of the same width (e.g. dtype=st.bf16 for uint16 data)"
        )
    return found


def _device_name(kind: int, ordinal: int | None) -> str:
    if kind == kDLCUDA:
        return "GPU memory" if ordinal is None else f"GPU memory (cuda:{ordinal})"
    return {kDLCPU: "host memory", kDLCUDAHost: "pinned host memory"}.get(kind, f"memory of DLPack device type {kind}")


def _device_error(kind: int, ordinal: int | None, backend: Backend) -> TypeError:
    """Data the backend's kernels cannot read: where it is, where kernels run, how to move it."""
    where = _device_name(kind, ordinal)
    if backend.name != "cuda":
        return TypeError(
            f"the data is in {where} but safetile runs kernels on the CPU interpreter (cpu backend): copy it "
            "to the host first, e.g. st.from_numpy(np.asarray(x.cpu())) or st.from_dlpack(x.cpu())"
        )
    if kind != kDLCUDA:
        return TypeError(
            f"the data is in {where} but safetile runs kernels on the GPU (cuda backend): copy it to "
            "the GPU first, e.g. st.from_numpy(np.asarray(x)) or st.from_dlpack(x.cuda())"
        )
    ours = _stream_of(backend).device.ordinal
    return TypeError(f"the data is in {where} but safetile runs kernels on cuda:{ours}: copy it there first "
                     f"(x.to('cuda:{ours}'))")


def _check_device(kind: int, ordinal: int | None, backend: Backend) -> None:
    if backend.name == "cuda":
        readable = kind == kDLCUDA and ordinal == _stream_of(backend).device.ordinal
    else:
        readable = kind in (kDLCPU, kDLCUDAHost)
    if not readable:
        raise _device_error(kind, ordinal, backend)


def _stream_of(backend: Backend) -> CudaStream:
    return backend.default_stream  # type: ignore[return-value]  # the cuda backend's streams are CudaStreams


# -- export -------------------------------------------------------------------------

_EXPORTS: dict[int, tuple[Any, ...]] = {}
"""Per exported managed tensor (by address): the struct, its shape and strides
arrays and the storage, alive until the consumer calls the deleter."""


def _release(managed: int) -> None:
    """The deleter's work: drop what kept an exported tensor alive."""
    del _EXPORTS[managed]


def _c_callback(work: Callable[[int], None]) -> Any:
    """``work`` as a C ``void (*)(void *)`` that survives a C caller's pending exception.

    Consumers that refuse a capsule drop it with their own exception already
    set (numpy's ``from_dlpack`` does), and CPython raises a pending exception
    out of the first call a Python callback makes.  So the callback takes it
    first, does ``work`` (the memory is released exactly once either way) and
    raises it again for ctypes to print: the consumer's reason is shown, though
    its caller sees a ``SystemError`` -- a Python callback cannot hand the
    exception back to C.
    """

    def callback(address: int | None) -> None:
        try:
            _error_occurred()
        except BaseException as pending:
            work(address or 0)
            raise pending
        work(address or 0)

    callback.__qualname__ = f"safetile DLPack {work.__name__}"  # what ctypes names when it prints
    return _VoidCallback(callback)


_deleter = _c_callback(_release)
"""The deleter of every managed tensor safetile exports (kept alive here: C holds its address)."""


def _destroy_capsule(capsule: int) -> None:
    """Per the DLPack spec: a capsule nobody consumed (still named ``dltensor``/``dltensor_versioned``)
    frees its tensor; a consumed one (renamed ``used_...``) leaves that to the consumer's deleter call."""
    for name in (_VERSIONED, _LEGACY):
        if _capsule_is_valid(capsule, name):
            _release(_capsule_pointer(capsule, name))


_capsule_destructor = _c_callback(_destroy_capsule)


def _make_capsule(storage: Any, ptr: int, shape: Sequence[int], strides: Sequence[int], element: tuple[int, int],
                  device: tuple[int, int], version: tuple[int, int] | None, readonly: bool = False) -> object:
    """A capsule describing ``ptr`` (shape and strides in elements) that keeps ``storage``
    alive until it is released; versioned (``version``) or legacy (``None``)."""
    managed: Managed
    if version is None:
        managed = DLManagedTensor()
    else:
        managed = DLManagedTensorVersioned()
        managed.version = DLPackVersion(*version)
        managed.flags = READ_ONLY if readonly else 0
    shape_array = (ctypes.c_int64 * len(shape))(*shape)
    strides_array = (ctypes.c_int64 * len(strides))(*strides)
    t = managed.dl_tensor
    t.data = ptr
    t.device = DLDevice(*device)
    t.ndim = len(shape)
    t.dtype = DLDataType(element[0], element[1], 1)
    t.shape = shape_array
    t.strides = strides_array
    t.byte_offset = 0
    managed.deleter = _deleter
    address = ctypes.addressof(managed)
    _EXPORTS[address] = (managed, shape_array, strides_array, storage)
    return _capsule_new(address, _LEGACY if version is None else _VERSIONED, _capsule_destructor)


def dlpack_device(tensor: Tensor) -> tuple[int, int]:
    """``(kDLCPU, 0)`` for host memory, ``(kDLCUDA, ordinal)`` for GPU memory."""
    storage = tensor.storage("export the tensor")
    if isinstance(storage, np.ndarray):
        return (kDLCPU, 0)
    return (kDLCUDA, storage.stream.device.ordinal)


def to_dlpack(tensor: Tensor, *, stream: Any = None, max_version: tuple[int, int] | None = None,
              dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> object:
    """A DLPack capsule sharing ``tensor``'s memory (``tensor.__dlpack__``).

    Versioned (``dltensor_versioned``) when ``max_version >= (1, 0)``, else
    legacy.  ``copy=True`` or another ``dl_device`` is a ``BufferError``: the
    export never copies.  On the GPU, ``stream`` is the consumer's (DLPack
    rules): ``None`` or 1, the legacy default stream, already waits for
    safetile's streams; -1 asks for no ordering; 2 (per-thread default) or a
    ``cudaStream_t`` handle is made to wait for the tensor's pending work.
    """
    storage = tensor.storage("export the tensor")
    device = dlpack_device(tensor)
    if copy:
        raise BufferError("safetile exports share the tensor's memory and never copy: copy=True is not supported")
    if dl_device is not None and tuple(dl_device) != device:
        raise BufferError(f"the tensor is in {_device_name(*device)}; it cannot be exported to device "
                          f"{tuple(dl_device)}")
    version = None if max_version is None or max_version[0] < 1 else min(DLPACK_VERSION, tuple(max_version))
    itemsize = storage.dtype.itemsize
    if any(s % itemsize for s in storage.strides):
        raise BufferError(f"strides {storage.strides} (bytes) are not multiples of the element size {itemsize}")
    readonly = isinstance(storage, np.ndarray) and not storage.flags.writeable
    if readonly and version is None:
        raise BufferError("a read-only tensor can only be exported as a versioned capsule (max_version=(1, 0))")
    if device[0] == kDLCUDA:
        _order_for_consumer(storage, stream)
        ptr = storage.ptr
    elif stream is not None:
        raise ValueError(f"stream={stream!r}: host memory has no stream (DLPack wants None)")
    else:
        ptr = storage.ctypes.data
    strides = [s // itemsize for s in storage.strides]
    return _make_capsule(storage, ptr, storage.shape, strides, _TO_DLPACK[tensor.dtype], device, version, readonly)


def _order_for_consumer(storage: Any, stream: Any) -> None:
    """Make the consumer's CUDA ``stream`` wait for the work writing ``storage``."""
    if stream is None or stream in (1, -1):
        return  # our streams are blocking: the legacy default stream (1) waits for them; -1 wants nothing
    if not isinstance(stream, int) or stream == 0:
        raise ValueError(
            f"stream={stream!r}: DLPack wants None, -1, 1 (legacy default stream), 2 (per-thread default) "
            "or a cudaStream_t handle as an int (0 is ambiguous)"
        )
    from .cuda.driver import call, load

    event = storage.stream.record()
    call(load().cuStreamWaitEvent, stream, event.handle, 0)


# -- import -------------------------------------------------------------------------


class _Consumed:
    """Owns a consumed DLPack tensor: calls the producer's deleter once, when garbage."""

    def __init__(self, managed: Managed):
        self._managed = managed

    def __del__(self) -> None:
        deleter = self._managed.deleter
        if deleter:
            deleter(ctypes.addressof(self._managed))


class _HostMemory:
    """The ``__array_interface__`` a host view is built from; the view's base, so it keeps ``owner`` alive."""

    def __init__(self, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype, owner: Any,
                 readonly: bool):
        self.__array_interface__ = {
            "shape": shape,
            "typestr": dtype.str,
            "data": (ptr, readonly),
            "strides": tuple(s * dtype.itemsize for s in strides),
            "version": 3,
        }
        self.owner = owner


def _open_capsule(capsule: Any) -> tuple[_Buffer, Managed, bytes]:
    """What ``capsule`` describes, its managed tensor and its name (nothing is consumed)."""
    address = id(capsule)  # the capsule API takes PyObject *: CPython's id()
    if _capsule_is_valid(address, _VERSIONED):
        name = _VERSIONED
        managed: Managed = DLManagedTensorVersioned.from_address(_capsule_pointer(address, name))
        if managed.version.major != DLPACK_VERSION[0]:
            raise BufferError(f"DLPack {managed.version.major}.{managed.version.minor} capsules are not supported "
                              f"(safetile reads DLPack {DLPACK_VERSION[0]}.x)")
        readonly = bool(managed.flags & READ_ONLY)
    elif _capsule_is_valid(address, _LEGACY):
        name = _LEGACY
        managed = DLManagedTensor.from_address(_capsule_pointer(address, name))
        readonly = False
    elif _capsule_is_valid(address, _VERSIONED_USED) or _capsule_is_valid(address, _LEGACY_USED):
        raise BufferError("this DLPack capsule was already consumed (a capsule can be imported once)")
    else:
        raise TypeError("not a DLPack capsule (its name is neither 'dltensor' nor 'dltensor_versioned')")
    t = managed.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else _compact_strides(shape)
    kind = (t.dtype.code, t.dtype.bits, t.dtype.lanes)
    if t.dtype.lanes != 1:
        raise TypeError(f"vector elements ({_dlpack_type_name(*kind)}) are not supported: lanes must be 1")
    buffer = _Buffer((t.data or 0) + t.byte_offset, shape, strides, t.dtype.code, t.dtype.bits,
                     _dlpack_type_name(*kind), (t.device.device_type, t.device.device_id), readonly)
    return buffer, managed, name


def _consume(capsule: Any, managed: Managed, name: bytes) -> _Consumed:
    """Take the capsule's tensor (renamed ``used_...``, its destructor leaves it to us)."""
    _capsule_set_name(id(capsule), _VERSIONED_USED if name == _VERSIONED else _LEGACY_USED)
    return _Consumed(managed)


def _interface_buffer(interface: dict[str, Any], device: tuple[int, int]) -> _Buffer:
    """What a ``__cuda_array_interface__`` (v2/v3) describes."""
    if interface.get("mask") is not None:
        raise TypeError("masked arrays (__cuda_array_interface__ 'mask') are not supported")
    dtype = np.dtype(interface["typestr"])
    if not dtype.isnative:
        raise TypeError(f"{interface['typestr']!r}: only native byte order is supported")
    shape = tuple(int(d) for d in interface["shape"])
    byte_strides = interface.get("strides")
    if byte_strides is None:
        strides = _compact_strides(shape)
    elif any(s % dtype.itemsize for s in byte_strides):
        raise TypeError(f"strides {tuple(byte_strides)} (bytes) are not multiples of the element size {dtype.itemsize}")
    else:
        strides = tuple(int(s) // dtype.itemsize for s in byte_strides)
    ptr, readonly = interface["data"]
    return _Buffer(int(ptr or 0), shape, strides, _NUMPY_KIND_CODE.get(dtype.kind), dtype.itemsize * 8,
                   dtype.name, device, bool(readonly))


def _cuda_interface(obj: Any) -> dict[str, Any] | None:
    """``obj.__cuda_array_interface__``; ``None`` where it has none, or where DLPack describes it better."""
    has_dlpack = hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__")
    try:
        interface: dict[str, Any] = obj.__cuda_array_interface__
    except AttributeError:
        return None
    except Exception:
        if has_dlpack:  # torch raises KeyError for types the interface has no typestr for (bf16)
            return None
        raise
    if has_dlpack and np.dtype(interface["typestr"]).kind not in _NUMPY_KIND_CODE:
        return None  # an opaque typestr ('<V2' for bf16): DLPack names the type
    return interface


def _wait_for_producer(stream: int, ours: CudaStream) -> None:
    """Make our stream wait for the work the producer enqueued on ``stream`` (CAI v3 ``stream``)."""
    if stream == 0:
        raise ValueError("__cuda_array_interface__ 'stream' is 0, which the interface disallows (ambiguous)")
    from .cuda.driver import call, load

    driver = load()
    event = call(driver.cuEventCreate, driver.CUevent_flags.CU_EVENT_DISABLE_TIMING)
    try:
        call(driver.cuEventRecord, event, stream)
        call(driver.cuStreamWaitEvent, ours.handle, event, 0)
    finally:
        call(driver.cuEventDestroy, event)  # released once the wait is done


def _storage(buffer: _Buffer, dtype: DType, owner: Any, backend: Backend, stream: CudaStream | None = None) -> Any:
    """Storage over the producer's memory, keeping ``owner`` alive; GPU memory is used on ``stream``
    (default: the backend's default stream)."""
    return _storage_at(buffer.ptr, buffer.shape, buffer.strides, buffer.device[0] == kDLCUDA, dtype, owner, backend,
                       stream, buffer.readonly)


@functools.cache
def _cuda() -> Any:
    """What the GPU paths use of ``runtime/cuda`` (imported on first use: a host-only run never
    loads it), found once rather than by an import statement each call of a kernel op."""
    from types import SimpleNamespace

    from .cuda.memory import DeviceArray
    from .cuda.stream import foreign_stream

    return SimpleNamespace(DeviceArray=DeviceArray, foreign_stream=foreign_stream)


def _storage_at(ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], on_gpu: bool, dtype: DType, owner: Any,
                backend: Backend, stream: CudaStream | None = None, readonly: bool = False) -> Any:
    """``_storage`` of memory at ``ptr`` (``strides`` in elements; a ``readonly`` host buffer gives a
    read-only view)."""
    storage_dtype = numpy_dtype(dtype)
    if on_gpu:
        itemsize = storage_dtype.itemsize
        return _cuda().DeviceArray(ptr, shape, tuple(s * itemsize for s in strides), storage_dtype,
                                   stream or _stream_of(backend), owner=owner)
    return np.asarray(_HostMemory(ptr, shape, strides, storage_dtype, owner, readonly))


def _request_capsule(obj: Any, backend: Backend, exchange: int | None = None) -> object:
    """``obj.__dlpack__(...)`` after checking its device; on the GPU the producer orders its work
    before DLPack's ``stream=`` ``exchange`` (default: our default stream's handle)."""
    kind, ordinal = (int(v) for v in obj.__dlpack_device__())
    _check_device(kind, ordinal, backend)
    kwargs: dict[str, int] = {}
    if kind == kDLCUDA:
        kwargs["stream"] = int(_stream_of(backend).handle) if exchange is None else exchange
    try:
        return obj.__dlpack__(max_version=DLPACK_VERSION, **kwargs)  # type: ignore[no-any-return]
    except TypeError:  # a producer older than DLPack 1.0 does not know max_version
        return obj.__dlpack__(**kwargs)  # type: ignore[no-any-return]


def _import_capsule(capsule: Any, dtype: DType | None, backend: Backend, stream: CudaStream | None = None) -> Tensor:
    """A ``Tensor`` over a capsule's memory, once every check passed (a refused capsule stays its
    producer's, freed by its destructor)."""
    buffer, managed, name = _open_capsule(capsule)
    _check_device(*buffer.device, backend)
    element = _element_type(buffer, dtype)
    owner = _consume(capsule, managed, name)
    return Tensor(_storage(buffer, element, owner, backend, stream), element)


def from_dlpack(obj: Any, *, dtype: DType | None = None) -> Tensor:
    """A ``Tensor`` sharing the memory of ``obj`` (no copy; strides kept).

    ``obj``: an array with ``__dlpack__`` (numpy, torch, CuPy, JAX), one with
    ``__cuda_array_interface__`` (CuPy, Numba, torch; preferred for GPU data
    on the cuda backend) or a DLPack capsule.  The data must be where the
    backend runs kernels (host memory for the CPU interpreter, the backend's
    GPU for cuda); otherwise a ``TypeError`` says how to copy it there.
    ``dtype=`` reinterprets elements of the same width (uint16 data as
    ``st.bf16``).  The tensor keeps the producer's memory alive; see the
    module notes for what the runtime cannot check across this edge.
    """
    if isinstance(obj, Tensor):
        raise TypeError(
            "already a safetile Tensor: use it as it is (st.as_tensor passes it through); a second handle "
            "on its memory would escape the ownership checks"
        )
    backend = current_backend()
    if backend.name == "cuda":
        interface = _cuda_interface(obj)
        if interface is not None:
            return _from_cuda_interface(obj, interface, dtype, backend)
    if isinstance(obj, CapsuleType):
        capsule: Any = obj
    elif hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        capsule = _request_capsule(obj, backend)
    elif _cuda_interface(obj) is not None:  # GPU data without DLPack, on the cpu backend
        raise _device_error(kDLCUDA, None, backend)
    else:
        raise TypeError(
            f"cannot import a {type(obj).__name__}: st.from_dlpack takes an array with __dlpack__ and "
            "__dlpack_device__ (numpy, torch, CuPy, JAX), one with __cuda_array_interface__ (CuPy, Numba, "
            "torch) or a DLPack capsule; for other data use st.from_numpy(np.asarray(x))"
        )
    return _import_capsule(capsule, dtype, backend)


def _from_cuda_interface(obj: Any, interface: dict[str, Any], dtype: DType | None, backend: Backend) -> Tensor:
    stream = _stream_of(backend)
    buffer = _interface_buffer(interface, (kDLCUDA, stream.device.ordinal))
    element = _element_type(buffer, dtype)
    if interface.get("stream") is not None:
        _wait_for_producer(int(interface["stream"]), stream)
    return Tensor(_storage(buffer, element, obj, backend), element)


def as_tensor(obj: Any) -> Tensor:
    """``obj`` as a ``Tensor``: a safetile ``Tensor`` as it is, anything else through ``from_dlpack``."""
    return obj if isinstance(obj, Tensor) else from_dlpack(obj)


# -- torch tensors at the launch boundary ---------------------------------------------
#
# The contract (docs/torch.md): a launch of CUDA torch tensors runs on torch's current stream
# on their device, taken when the launch is made (``torch_stream``), so it is ordered with the
# torch work before and after it as a torch op is.  Each tensor is shared for the launch on that
# stream (``share_torch``: the handle keeps the torch tensor, so its storage, alive while a safetile
# handle holds it), and before the kernel is enqueued on whichever stream drives it, torch's caching
# allocator is told that stream uses the memory (``keep_for_stream``: ``Tensor.record_stream``,
# a no-op for the tensor's allocation stream), so a tensor freed by torch while the launch is
# pending is not handed out again before the launch has finished.


def is_torch_tensor(obj: Any) -> bool:
    """A torch tensor (``torch.Tensor``, ``nn.Parameter``...), told without importing torch."""
    module = type(obj).__module__
    return (module == "torch" or module.startswith("torch.")) and hasattr(obj, "__dlpack__")


def _torch_current_stream(ordinal: int) -> Any:
    """torch's current stream on GPU ``ordinal`` (the ``torch.cuda.Stream``)."""
    import torch

    return torch.cuda.current_stream(ordinal)


def torch_stream(tensors: Sequence[Any]) -> CudaStream | None:
    """The stream a launch of these torch tensors runs on: torch's current stream on the cuda
    backend's GPU (wrapped: ``cuda.stream.foreign_stream``) where one of them is in GPU memory;
    ``None`` where none is (host memory: the launch runs on the backend's default stream)."""
    return torch_current(tensors)[0]


def torch_current(tensors: Sequence[Any]) -> tuple[CudaStream | None, Any]:
    """``torch_stream``'s stream and torch's own object of it (``torch.cuda.current_stream``;
    ``(None, None)`` for host tensors): a kernel op hands the latter to ``keep_for_stream``, so
    one call asks torch for its current stream once."""
    backend = current_backend()
    if backend.name != "cuda" or not any(t.is_cuda for t in tensors):
        return None, None
    return torch_current_on(_stream_of(backend).device)


_TORCH_CURRENT: dict[tuple[int, int], tuple[CudaStream, Any]] = {}
"""(device ordinal, raw stream handle) -> (our wrapper, torch's ``Stream`` object) of a stream torch
made current: a handle names one torch stream for good (pool streams are never destroyed, an
``ExternalStream``'s id is its handle), so the object ``current_stream`` built for it once is the
one it would build again."""


def torch_current_on(device: Any) -> tuple[CudaStream, Any]:
    """``torch_current`` for a call known to be on the GPU ``device`` (a ``runtime.cuda`` Device):
    torch's current stream asked by its raw handle (``torch._C._cuda_getCurrentRawStream``, one C
    call), its two objects built at the first launch on it (``_TORCH_CURRENT``), not each call."""
    device.current_here()  # torch's autograd workers call backward ops in threads of their own
    ordinal = device.ordinal
    raw_stream = _torch_raw_stream()
    current = None
    if raw_stream is None:  # a torch without CUDA (the unit tests' stand-ins): the object itself
        current = _torch_current_stream(ordinal)
        raw = int(current.cuda_stream)
    else:
        raw = raw_stream(ordinal)
    found = _TORCH_CURRENT.get((ordinal, raw))
    if found is None:
        if current is None:
            current = _torch_current_stream(ordinal)
        handle = int(current.cuda_stream)
        found = (_cuda().foreign_stream(device, handle, "torch current"), current)
        if handle == raw:
            _TORCH_CURRENT[ordinal, raw] = found
    return found


@functools.cache
def _torch_raw_stream() -> Callable[[int], int] | None:
    """torch's C call giving its current stream's raw handle on a GPU (``None`` in a torch built
    without CUDA, which has no current stream of its own)."""
    import torch

    return getattr(torch._C, "_cuda_getCurrentRawStream", None)


def share_torch(tensor: Any, stream: CudaStream | None) -> Tensor:
    """A handle on a torch tensor's memory (no copy; one that requires grad is shared as its data,
    invisible to autograd), used on ``stream``, which is ``torch_stream``'s: torch's current
    stream, where torch's work on the tensor already is, so nothing waits.  Read from the tensor's
    own attributes (``_torch_buffer``: what DLPack would describe, without building and parsing a
    capsule, which every kernel-op call would pay for each tensor) and checked as ``from_dlpack``
    checks (element type, the backend's memory); the handle keeps the tensor, so its storage,
    alive."""
    backend = current_backend()
    buffer = _torch_buffer(tensor)
    _check_device(*buffer.device, backend)
    element = _element_type(buffer, None)
    return Tensor(_storage(buffer, element, tensor, backend, stream), element)


def torch_storage(tensor: Any, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], element: DType,
                  stream: CudaStream | None) -> Any:
    """The storage ``share_torch`` makes for a torch tensor whose element type, device and
    layout were checked already, from its ``data_ptr()``, shape and strides as the caller read
    them (a kernel op's warm path reads them once a call for its signature too:
    ``runtime/torch/custom_op.py``)."""
    return _storage_at(ptr, shape, strides, tensor.is_cuda, element, tensor, current_backend(), stream)


_TORCH_TYPES: dict[Any, tuple[int | None, int, str]] = {}
"""torch dtype -> DLPack ``(code, bits, type name)``: torch names its dtypes as DLPack's type names do."""


def _torch_buffer(tensor: Any) -> _Buffer:
    """What a torch tensor's memory is (as a capsule of it would say): its address, shape, strides
    and element type, the device it is on.  Lazy views are refused: torch's DLPack export refuses
    them too, and their memory does not hold the values they show."""
    if not _TORCH_TYPES:
        import torch

        for code, bits in set(_TO_DLPACK.values()):
            name = _dlpack_type_name(code, bits, 1)
            found = getattr(torch, name, None)
            if isinstance(found, torch.dtype):
                _TORCH_TYPES[found] = (code, bits, name)
    if tensor.is_neg() or tensor.is_conj():
        raise TypeError("a torch tensor with its negative or conjugate bit set (a lazy view) cannot be shared: "
                        "pass x.resolve_neg().resolve_conj()")
    code, bits, name = _TORCH_TYPES.get(tensor.dtype) or (None, 0, str(tensor.dtype).removeprefix("torch."))
    where = (kDLCUDA, tensor.device.index) if tensor.is_cuda else (kDLCPU, 0)
    # data_ptr() raises for sparse and other layouts without strided memory, naming the layout
    return _Buffer(tensor.data_ptr(), tuple(tensor.shape), tensor.stride(), code, bits, name, where, False)


def keep_for_stream(tensors: Sequence[Any], stream: Stream, current: Any = None) -> None:
    """Tell torch's caching allocator that work about to be enqueued on ``stream`` uses the
    memory of these torch tensors (``record_stream``): freed by torch meanwhile, it is not reused
    before that work is done.  Host tensors need nothing (the launch is over when it returns).
    ``current``: torch's current stream as ``torch_current`` read it for this launch (default:
    asked again)."""
    cuda = [t for t in tensors if t.is_cuda]
    if not cuda:
        return
    import torch

    ordinal = cuda[0].device.index
    if current is None:
        current = _torch_current_stream(ordinal)
    address = int(stream.address)  # type: ignore[attr-defined]  # a CudaStream: the cuda backend's
    torch_side = current if int(current.cuda_stream) == address else torch.cuda.ExternalStream(address, device=ordinal)
    for t in cuda:
        t.record_stream(torch_side)


def import_torch_arguments(params: Sequence[Any], args: Sequence[Any], generics: Mapping[str, Any],
                           refuse: Callable[[str], Exception]) -> tuple[list[Any], tuple[tuple[int, Any], ...],
                                                                        CudaStream | None]:
    """A launch's arguments with each torch tensor shared as a safetile handle (``share_torch``:
    no copy), the ``(position, torch tensor)`` pairs to give back in their place, and the stream
    the launch runs on when driven without one (``torch_stream``: torch's current stream for
    GPU tensors; ``None``: the backend's default stream).

    An ``st.Ref`` parameter takes the tensor itself; an output (``st.Mut``, ``st.MutMapped``)
    is partitioned by its parameter's tile shape, with the tile's generics read from
    ``generics`` (``add(z, x, y, S=(1024,))``).  A tensor that requires grad is shared
    detached (the launch is invisible to autograd, as an in-place write to ``.data`` is).
    ``refuse(message)`` makes the error for an argument this cannot take."""
    converted = list(args)
    given: list[tuple[int, Any]] = []
    for param, arg in zip(params, args):
        if is_torch_tensor(arg) and param.kind != "tensor":
            raise refuse(f"'{param.name}' is a {param.kind} parameter: a torch tensor passes only for "
                         "st.Ref, st.Mut and st.MutMapped parameters")
    stream = torch_stream([arg for arg in args if is_torch_tensor(arg)])
    for i, (param, arg) in enumerate(zip(params, args)):
        if not is_torch_tensor(arg):
            continue
        handle = share_torch(arg, stream)
        if param.annotation.mode in ("mut", "mapped"):
            converted[i] = handle.partition(_output_tile(param, generics, refuse))
        else:
            converted[i] = handle
        given.append((i, arg))
    return converted, tuple(given), stream


def _output_tile(param: Any, generics: Mapping[str, Any], refuse: Callable[[str], Exception]) -> tuple[int, ...]:
    """The tile an output parameter's blocks own, its generics' values taken from ``generics``."""
    shape = param.annotation.shape
    names = [shape] if isinstance(shape, str) else [d for d in shape if isinstance(d, str)]
    missing = [n for n in names if n not in generics]
    if missing:
        listed = ", ".join(f"{n}=..." for n in missing)
        raise refuse(f"'{param.name}' is a torch tensor for an output of tile {shape!r}: pass {listed} (the tile "
                     f"each block owns), or partition it yourself: st.from_dlpack(t).partition(tile)")
    if isinstance(shape, str):
        return tuple(generics[shape])
    return tuple(generics[d] if isinstance(d, str) else d for d in shape)


export_with(to_dlpack, dlpack_device)

__all__ = ["as_tensor", "dlpack_device", "from_dlpack", "import_torch_arguments", "is_torch_tensor", "keep_for_stream",
           "share_torch", "to_dlpack", "torch_current", "torch_current_on", "torch_storage", "torch_stream"]
