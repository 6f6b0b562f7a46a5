"""DLPack and CUDA Array Interface interop on the CPU backend (``runtime/interop.py``).

Exports and imports share memory (writes through one side are read through
the other), keep strides, map every element type, make versioned and legacy
capsules, release an exported tensor exactly once whoever ends its life, and
refuse what they cannot do with errors that say why.  The CUDA-device parts
that need no driver (capsules and CUDA array interfaces describing GPU
memory) are checked here too; test/gpu/test_interop_gpu.py does the rest.
"""

from __future__ import annotations

import ctypes
import gc
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import OwnershipError, Tensor, current_backend
from safetile.runtime import interop
from safetile.runtime.interop import (
    DLPACK_VERSION,
    as_tensor,
    from_dlpack,
    kDLBfloat,
    kDLBool,
    kDLCPU,
    kDLCUDA,
    kDLFloat,
    kDLFloat8_e4m3fn,
    kDLInt,
    kDLUInt,
)


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel
def add_2d(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1, -1)], y: st.Ref[f32, (-1, -1)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


# Its gc.collect() calls (a capsule released, an array freed) walk the test's objects only.
pytestmark = pytest.mark.usefixtures("young_heap")


@pytest.fixture(autouse=True)
def cpu_backend() -> None:
    if current_backend().name != "cpu":
        pytest.skip("host-memory interop (run with SAFETILE_BACKEND=cpu)")


class ReleaseCounter(dict):  # type: ignore[type-arg]
    """``interop._EXPORTS`` counting releases (the deleter's work) per managed tensor."""

    def __init__(self, exports: dict[int, Any]):
        super().__init__(exports)
        self.exported: set[int] = set()
        self.released: Counter[int] = Counter()

    def __setitem__(self, key: int, value: Any) -> None:
        self.exported.add(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: int) -> None:
        self.released[key] += 1
        super().__delitem__(key)

    def added(self) -> list[int]:
        """The tensors exported since the test began and not yet released."""
        return [key for key in self.exported if key in self]


@pytest.fixture
def exports() -> Iterator[ReleaseCounter]:
    real = interop._EXPORTS
    interop._EXPORTS = counter = ReleaseCounter(real)
    try:
        yield counter
    finally:
        gc.collect()
        # Capsules that outlive the test (held by a failure's traceback) are released from the real table.
        interop._EXPORTS = real
        real.clear()
        real.update(counter)


class Producer:
    """A DLPack producer handing out one given capsule (lets numpy consume a capsule we made)."""

    def __init__(self, capsule: Any, device: tuple[int, int] = (kDLCPU, 0)):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


def tensor_of(values: Any, dtype: st.DType = f32) -> Tensor:
    return st.from_numpy(np.asarray(values), dtype).sync()


# -- zero-copy round trips ------------------------------------------------------------


def test_numpy_view_of_a_tensor_shares_its_memory() -> None:
    t = tensor_of(np.arange(6, dtype=np.float32).reshape(2, 3))
    view = np.from_dlpack(t)
    assert view.shape == (2, 3) and view.dtype == np.float32
    view[1, 2] = 42.0
    assert t.numpy()[1, 2] == 42.0

    x, y = tensor_of(np.arange(128, dtype=np.float32)), tensor_of(np.ones(128, np.float32))
    out = st.zeros((128,), f32).sync()
    seen = np.from_dlpack(out)  # exported before the launch writes the tensor
    z, x, y = add(out.partition((128,)), x, y).sync()
    np.testing.assert_array_equal(seen, np.arange(128) + 1)
    np.testing.assert_array_equal(z.unpartition().numpy(), seen)


def test_tensor_over_a_numpy_array_shares_its_memory() -> None:
    x = np.arange(128, dtype=np.float32)
    t = from_dlpack(x)
    assert t.dtype == f32 and t.shape == (128,) and np.shares_memory(t.storage(), x)
    x[3] = -1.0
    assert t.numpy()[3] == -1.0

    z_array = np.zeros(128, np.float32)
    z, _, _ = add(from_dlpack(z_array).partition((128,)), t, from_dlpack(np.ones(128, np.float32))).sync()
    np.testing.assert_array_equal(z_array, x + 1)


def test_strides_are_kept_both_ways() -> None:
    base = np.arange(64 * 128, dtype=np.float32).reshape(64, 128)
    transposed, sliced = base[:, :64].T, base[::2, 1::2][:, :64]
    for array in (transposed, sliced, base[::-1]):
        t = from_dlpack(array)
        assert t.shape == array.shape
        assert t.strides == tuple(s // 4 for s in array.strides)
        assert np.shares_memory(t.storage(), array)
        back = np.from_dlpack(t)
        assert back.strides == array.strides and np.shares_memory(back, array)
        np.testing.assert_array_equal(back, array)

    # A kernel reads a transposed view in place (the CPU interpreter takes
    # C- or Fortran-contiguous memory only; the GPU takes any strides).
    x = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    z, _, _ = add_2d(st.zeros((64, 64), f32).sync().partition((64, 64)),
                     from_dlpack(x.T), from_dlpack(x)).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), x.T + x)


# -- element types --------------------------------------------------------------------

NUMPY_TYPES = [
    (np.float16, st.f16, (kDLFloat, 16)), (np.float32, st.f32, (kDLFloat, 32)), (np.float64, st.f64, (kDLFloat, 64)),
    (np.int8, st.i8, (kDLInt, 8)), (np.int16, st.i16, (kDLInt, 16)), (np.int32, st.i32, (kDLInt, 32)),
    (np.int64, st.i64, (kDLInt, 64)), (np.uint8, st.u8, (kDLUInt, 8)), (np.uint16, st.u16, (kDLUInt, 16)),
    (np.uint32, st.u32, (kDLUInt, 32)), (np.uint64, st.u64, (kDLUInt, 64)), (np.bool_, st.bool_, (kDLBool, 8)),
]


@pytest.mark.parametrize(("np_type", "dtype", "dl_type"), NUMPY_TYPES, ids=[d.name for _, d, _ in NUMPY_TYPES])
def test_element_types_map_both_ways(np_type: Any, dtype: st.DType, dl_type: tuple[int, int]) -> None:
    x = np.array([0, 1, 1, 0, 1], dtype=np_type)
    t = from_dlpack(x)
    assert t.dtype == dtype and np.shares_memory(t.storage(), x)
    buffer, _, _ = interop._open_capsule(t.__dlpack__(max_version=(1, 0)))
    assert (buffer.code, buffer.bits) == dl_type
    back = np.from_dlpack(t)
    assert back.dtype == np_type and np.shares_memory(back, x)
    np.testing.assert_array_equal(back, x)


BF16_ONE, BF16_MINUS_TWO = 0x3F80, 0xC000


def test_bf16_and_fp8_through_dtype() -> None:
    bits = np.array([BF16_ONE, BF16_MINUS_TWO], np.uint16)
    t = from_dlpack(bits, dtype=st.bf16)
    assert t.dtype == st.bf16 and np.shares_memory(t.storage(), bits)
    np.testing.assert_array_equal(t.numpy(), [1.0, -2.0])
    buffer, _, _ = interop._open_capsule(t.__dlpack__(max_version=(1, 0)))
    assert (buffer.code, buffer.bits) == (kDLBfloat, 16)
    again = from_dlpack(t.__dlpack__(max_version=(1, 0)))  # a bf16 capsule arrives as bf16
    assert again.dtype == st.bf16 and np.shares_memory(again.storage(), bits)

    fp8 = from_dlpack(np.array([0x38, 0x40], np.uint8), dtype=st.f8e4m3fn)  # 1.0, 2.0
    np.testing.assert_array_equal(fp8.numpy(), [1.0, 2.0])
    buffer, _, _ = interop._open_capsule(fp8.__dlpack__(max_version=(1, 0)))
    assert (buffer.code, buffer.bits) == (kDLFloat8_e4m3fn, 8)


def test_bool_tensor_is_a_numpy_bool_view() -> None:
    t = tensor_of([True, False, True], st.bool_)
    view = np.from_dlpack(t)
    assert view.dtype == np.bool_
    view[1] = True
    np.testing.assert_array_equal(t.numpy(), [1, 1, 1])


# -- capsules --------------------------------------------------------------------------


def test_versioned_and_legacy_capsules() -> None:
    t = tensor_of(np.arange(4, dtype=np.float32))
    versioned = t.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(versioned)
    _, managed, _ = interop._open_capsule(versioned)
    assert (managed.version.major, managed.version.minor) == (1, 0)
    newer = t.__dlpack__(max_version=(2, 3))  # alive while its struct is read
    _, newest, _ = interop._open_capsule(newer)
    assert (newest.version.major, newest.version.minor) == DLPACK_VERSION
    legacy = t.__dlpack__()
    assert '"dltensor"' in repr(legacy)
    assert '"dltensor"' in repr(t.__dlpack__(max_version=(0, 8)))
    view = np.from_dlpack(Producer(versioned))
    view[0] = 7.0
    legacy_view = np.from_dlpack(Producer(legacy))  # read-only: a legacy capsule cannot say it is writable
    assert legacy_view[0] == 7.0 and t.numpy()[0] == 7.0
    assert "used_dltensor_versioned" in repr(versioned) and "used_dltensor" in repr(legacy)
    assert t.__dlpack_device__() == (kDLCPU, 0)


def test_import_of_numpy_capsules_keeps_the_array_alive() -> None:
    for max_version in (None, (1, 0)):
        x = np.arange(4, dtype=np.float64)
        alive = weakref.ref(x)
        t = from_dlpack(x.__dlpack__(max_version=max_version))
        del x
        gc.collect()
        assert alive() is not None
        np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 3])
        del t
        gc.collect()
        assert alive() is None  # the tensor's end called numpy's deleter


def test_read_only_memory_stays_read_only() -> None:
    x = np.arange(4, dtype=np.float32)
    x.flags.writeable = False
    t = from_dlpack(x)
    assert not t.storage().flags.writeable
    with pytest.raises(BufferError, match="versioned"):
        t.__dlpack__()
    assert not np.from_dlpack(t).flags.writeable


def test_exported_memory_outlives_the_tensor_and_is_released_once(exports: ReleaseCounter) -> None:
    t = tensor_of(np.arange(5, dtype=np.float32))
    view = np.from_dlpack(t)
    (managed,) = exports.added()
    del t
    gc.collect()
    np.testing.assert_array_equal(view, np.arange(5))
    assert exports.released[managed] == 0
    del view
    gc.collect()
    assert exports.released[managed] == 1 and not exports.added()


def test_capsule_nobody_consumed_is_released_once(exports: ReleaseCounter) -> None:
    t = tensor_of(np.arange(5, dtype=np.float32))
    for max_version in (None, (1, 0)):
        capsule = t.__dlpack__(max_version=max_version)
        (managed,) = exports.added()
        del capsule
        gc.collect()
        assert exports.released[managed] == 1 and not exports.added()


def test_consumed_capsule_is_not_freed_twice(exports: ReleaseCounter) -> None:
    t = tensor_of(np.arange(5, dtype=np.float32))
    capsule = t.__dlpack__(max_version=(1, 0))
    (by_numpy,) = exports.added()
    view = np.from_dlpack(Producer(capsule))
    del capsule  # consumed: its destructor leaves the tensor to the consumer
    gc.collect()
    assert exports.released[by_numpy] == 0
    del view
    gc.collect()
    assert exports.released[by_numpy] == 1

    capsule = t.__dlpack__()
    (by_safetile,) = exports.added()
    alias = from_dlpack(capsule)
    with pytest.raises(BufferError, match="already consumed"):
        from_dlpack(capsule)
    del capsule
    gc.collect()
    assert exports.released[by_safetile] == 0
    del alias
    gc.collect()
    assert exports.released[by_safetile] == 1 and not exports.added()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_capsule_a_consumer_refuses_is_released_once(exports: ReleaseCounter) -> None:
    # numpy has no bf16: it drops the capsule with its exception set, which a
    # Python destructor cannot give back (ctypes prints it; numpy's caller
    # gets a SystemError).  The capsule is released all the same.
    t = from_dlpack(np.array([BF16_ONE], np.uint16), dtype=st.bf16)
    with pytest.raises(SystemError):
        np.from_dlpack(t)
    gc.collect()
    assert [exports.released[key] for key in exports.exported] == [1] and not exports.added()


# -- refusals --------------------------------------------------------------------------


def test_moved_tensor_cannot_be_exported() -> None:
    t = tensor_of(np.zeros(4, np.float32))
    part = t.partition((4,))
    for export in (t.__dlpack__, t.__dlpack_device__, lambda: np.from_dlpack(t)):
        with pytest.raises(OwnershipError, match="cannot export the tensor: this tensor was moved into Partition"):
            export()
    assert np.from_dlpack(part.unpartition()).shape == (4,)


def test_export_refusals() -> None:
    t = tensor_of(np.zeros(4, np.float32))
    with pytest.raises(BufferError, match="never copy"):
        t.__dlpack__(copy=True)
    with pytest.raises(BufferError, match=r"host memory; it cannot be exported to device \(2, 0\)"):
        t.__dlpack__(dl_device=(kDLCUDA, 0))
    with pytest.raises(ValueError, match="host memory has no stream"):
        t.__dlpack__(stream=1)
    assert np.from_dlpack(t, copy=False).shape == (4,)
    t.__dlpack__(dl_device=(kDLCPU, 0), copy=False)


def test_import_refusals() -> None:
    with pytest.raises(TypeError, match=r"no safetile element type for complex64 \(supported: .*\); dtype="):
        from_dlpack(np.zeros(3, np.complex64))
    with pytest.raises(TypeError, match=r"cannot view int32 elements \(32 bits\) as bf16 \(16 bits\)"):
        from_dlpack(np.zeros(3, np.int32), dtype=st.bf16)
    with pytest.raises(TypeError, match="cannot import a list: st.from_dlpack takes an array with __dlpack__"):
        from_dlpack([1.0, 2.0])
    t = tensor_of(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="already a safetile Tensor"):
        from_dlpack(t)
    assert as_tensor(t) is t
    assert as_tensor(np.ones(2, np.float32)).dtype == f32


def test_gpu_data_on_the_cpu_backend_is_refused(exports: ReleaseCounter) -> None:
    capsule = interop._make_capsule(None, 0x7F0000000000, (2, 3), (3, 1), (kDLFloat, 32), (kDLCUDA, 0), (1, 1))
    with pytest.raises(TypeError, match=r"in GPU memory \(cuda:0\) but safetile runs kernels on the CPU "
                                        r"interpreter \(cpu backend\): copy it to the host first"):
        from_dlpack(capsule)
    (managed,) = exports.added()
    del capsule  # refused, hence not consumed: its destructor releases it
    gc.collect()
    assert exports.released[managed] == 1

    class CudaOnly:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3}

    with pytest.raises(TypeError, match=r"in GPU memory but safetile runs kernels on the CPU interpreter"):
        from_dlpack(CudaOnly())
    with pytest.raises(TypeError, match=r"in GPU memory \(cuda:1\) but .* CPU interpreter"):
        from_dlpack(Producer(None, (kDLCUDA, 1)))  # refused from __dlpack_device__, before __dlpack__


# -- parsing GPU descriptions without a driver ----------------------------------------


def test_cuda_capsule_parses_to_its_pointer_shape_strides_and_type() -> None:
    ptr = 0x7F0000001000
    for version in (None, (1, 1)):
        capsule = interop._make_capsule(None, ptr, (4, 3), (1, 4), (kDLBfloat, 16), (kDLCUDA, 1), version)
        buffer, _, name = interop._open_capsule(capsule)
        assert name == (b"dltensor" if version is None else b"dltensor_versioned")
        assert (buffer.ptr, buffer.shape, buffer.strides, buffer.device) == (ptr, (4, 3), (1, 4), (kDLCUDA, 1))
        assert interop._element_type(buffer, None) == st.bf16
        assert interop._element_type(buffer, st.i16) == st.i16  # same width: a reinterpretation


def test_capsule_without_strides_is_compact_and_byte_offset_counts() -> None:
    managed = interop.DLManagedTensor()
    shape = (ctypes.c_int64 * 3)(2, 3, 4)
    managed.dl_tensor.data, managed.dl_tensor.byte_offset = 0x1000, 64
    managed.dl_tensor.device = interop.DLDevice(kDLCUDA, 0)
    managed.dl_tensor.ndim, managed.dl_tensor.shape = 3, shape
    managed.dl_tensor.dtype = interop.DLDataType(kDLFloat, 32, 1)
    capsule = interop._capsule_new(ctypes.addressof(managed), b"dltensor", interop._VoidCallback())
    buffer, _, _ = interop._open_capsule(capsule)
    assert (buffer.ptr, buffer.strides) == (0x1040, (12, 4, 1))
    managed.dl_tensor.dtype = interop.DLDataType(kDLFloat, 32, 4)
    with pytest.raises(TypeError, match=r"vector elements \(float32x4\)"):
        interop._open_capsule(capsule)


def test_cuda_array_interface_parses() -> None:
    interface = {"shape": (3, 4), "typestr": "<f2", "data": (0x2000, False), "strides": (2, 6), "version": 3}
    buffer = interop._interface_buffer(interface, (kDLCUDA, 0))
    assert (buffer.ptr, buffer.shape, buffer.strides) == (0x2000, (3, 4), (1, 3))
    assert interop._element_type(buffer, None) == st.f16
    compact = interop._interface_buffer({**interface, "typestr": "<u2", "strides": None}, (kDLCUDA, 0))
    assert compact.strides == (4, 1) and interop._element_type(compact, st.bf16) == st.bf16
    with pytest.raises(TypeError, match="mask"):
        interop._interface_buffer({**interface, "mask": object()}, (kDLCUDA, 0))
    with pytest.raises(TypeError, match="not multiples of the element size 2"):
        interop._interface_buffer({**interface, "strides": (3, 6)}, (kDLCUDA, 0))


# -- the cuda backend's paths, on a stand-in backend and driver ------------------------


class FakeDriver:
    """The driver calls interop makes, recorded (``call`` takes ``(0, *values)`` as success)."""

    class CUevent_flags:  # noqa: N801 - cuda-python's name
        CU_EVENT_DISABLE_TIMING = 2

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        def function(*args: Any) -> tuple[Any, ...]:
            self.calls.append((name, *args))
            return (0, "event") if name == "cuEventCreate" else (0,)

        return function


class FakeStream:
    handle = 0x5000
    device = type("Device", (), {"ordinal": 0})()

    def record(self) -> Any:
        return type("Event", (), {"handle": "pending-work"})()


@pytest.fixture
def cuda_backend(monkeypatch: pytest.MonkeyPatch) -> FakeDriver:
    from safetile.runtime.cuda import driver as cuda_driver

    backend = type("Backend", (), {"name": "cuda", "default_stream": FakeStream()})()
    monkeypatch.setattr(interop, "current_backend", lambda: backend)
    fake = FakeDriver()
    monkeypatch.setattr(cuda_driver, "load", lambda: fake)
    return fake


def test_cuda_backend_imports_gpu_memory_without_copies(cuda_backend: FakeDriver) -> None:
    from safetile.runtime.cuda.memory import DeviceArray

    ptr = 0x7F0000002000
    capsule = interop._make_capsule(None, ptr, (4, 3), (1, 4), (kDLFloat, 32), (kDLCUDA, 0), (1, 1))
    producer = Producer(capsule, (kDLCUDA, 0))
    t = from_dlpack(producer)
    storage = t.storage()
    assert isinstance(storage, DeviceArray) and storage.stream is interop.current_backend().default_stream
    assert (storage.ptr, storage.shape, storage.strides, t.dtype) == (ptr, (4, 3), (4, 16), f32)
    assert isinstance(storage.owner, interop._Consumed)
    assert t.__dlpack_device__() == (kDLCUDA, 0)
    assert cuda_backend.calls == []  # DLPack: the producer orders its work before our stream's

    class Cai:
        __cuda_array_interface__ = {"shape": (8,), "typestr": "<u2", "data": (ptr, False), "version": 3,
                                    "strides": None, "stream": 7}

    cai = Cai()
    t = from_dlpack(cai, dtype=st.bf16)
    assert (t.dtype, t.storage().ptr, t.storage().strides, t.storage().owner) == (st.bf16, ptr, (2,), cai)
    assert cuda_backend.calls == [("cuEventCreate", 2), ("cuEventRecord", "event", 7),
                                  ("cuStreamWaitEvent", FakeStream.handle, "event", 0), ("cuEventDestroy", "event")]

    with pytest.raises(TypeError, match=r"in GPU memory \(cuda:1\) but safetile runs kernels on cuda:0"):
        from_dlpack(Producer(None, (kDLCUDA, 1)))
    with pytest.raises(TypeError, match=r"in host memory but safetile runs kernels on the GPU \(cuda backend\)"):
        from_dlpack(np.zeros(3, np.float32))


def test_cuda_backend_asks_producers_for_our_stream(cuda_backend: FakeDriver) -> None:
    asked: list[dict[str, Any]] = []

    class Producer2(Producer):
        def __dlpack__(self, **kwargs: Any) -> Any:
            asked.append(kwargs)
            return self.capsule

    capsule = interop._make_capsule(None, 0x7F0000002000, (2,), (1,), (kDLFloat, 16), (kDLCUDA, 0), (1, 1))
    assert from_dlpack(Producer2(capsule, (kDLCUDA, 0))).dtype == st.f16
    assert asked == [{"max_version": DLPACK_VERSION, "stream": FakeStream.handle}]


def test_cuda_export_orders_the_consumer_stream(cuda_backend: FakeDriver) -> None:
    from safetile.runtime.cuda.memory import DeviceArray

    storage = DeviceArray(0x7F0000003000, (2, 3), (4, 8), np.dtype(np.float32), FakeStream())
    t = Tensor(storage, f32)
    for stream in (None, 1, -1):  # the legacy default stream waits for ours already; -1: no ordering
        buffer, _, _ = interop._open_capsule(t.__dlpack__(stream=stream, max_version=(1, 0)))
        assert (buffer.ptr, buffer.strides, buffer.device) == (0x7F0000003000, (1, 2), (kDLCUDA, 0))
    assert cuda_backend.calls == []
    t.__dlpack__(stream=0x9000)
    assert cuda_backend.calls == [("cuStreamWaitEvent", 0x9000, "pending-work", 0)]
    with pytest.raises(ValueError, match="0 is ambiguous"):
        t.__dlpack__(stream=0)
