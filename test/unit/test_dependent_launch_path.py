"""Programmatic dependent launches (Hopper PDL) on the stand-in driver.

A variant compiled with ``dependent_launch`` waits (``griddepcontrol.wait``)
before any memory access, so the CUDA backend launches it by
``cuLaunchKernelEx`` with the one attribute
``PROGRAMMATIC_STREAM_SERIALIZATION`` = 1: it may start while the kernel
before it on the stream drains.  These tests pin that launch on both routes
(the C call of ``runtime/cuda/_launch.c``, cuda-python's bindings): the
grid, stream and parameter values it passes, the ``CUlaunchConfig`` bytes as
cuda.h lays them out, the refusals of any other config, errors naming
``cuLaunchKernelEx``, graph nodes marked programmatic; and that a variant
without ``dependent_launch`` still goes through ``cuLaunchKernel``.
"""

from __future__ import annotations

import ctypes
import dataclasses
import struct
import threading
import types
from collections.abc import Iterator
from typing import Any

import pytest

import safetile as st
from safetile import f32
from safetile.runtime import LaunchCache
from safetile.runtime.cuda import driver
from safetile.runtime.cuda.driver import CudaError, kernel_launch
from fake_cuda import (CU_LAUNCH_KERNEL_EX, CLaunchAttribute, CLaunchConfig, CUlaunchAttribute,
                       CUlaunchAttributeID, CUlaunchConfig, CUresult, FakeDriver, Launch, fake_cuda)


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


plain = add.with_options(dependent_launch=False)
"""The same kernel compiled without ``grid-dependency``: launched by ``cuLaunchKernel``."""

N, TILE = 256, 128
PSS = 6
"""``CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`` in cuda.h's ``CUlaunchAttributeID``."""


@pytest.fixture(params=["c", "bindings"])
def fake(request: pytest.FixtureRequest) -> Iterator[FakeDriver]:
    """The stand-in driver, launched through runtime/cuda/_launch.c and through cuda-python's route."""
    with fake_cuda(request.param) as stand_in:
        for kernel in (add, plain):  # kernels loaded by another test's driver are not this one's
            kernel.launch_cache = LaunchCache()
        yield stand_in
        assert (stand_in.c_launches > 0) == (request.param == "c"), "the route taken"


def loaded(dependent: bool) -> Any:
    """``add`` compiled for the stand-in's arch, as the backend loads it, with ``dependent_launch``
    as given (whatever the compiler chose)."""
    backend = st.current_backend()
    compiled = add.compile_variant(backend.target, S=(TILE,))
    return backend.prepare(dataclasses.replace(compiled, dependent_launch=dependent))


def values_for(codes: tuple[str, ...]) -> tuple[int, ...]:
    """Distinct parameter values: fake addresses for the pointers, small integers for the rest."""
    return tuple(0x7000 + 0x100 * i if code == "Q" else i + 1 for i, code in enumerate(codes))


def tensors() -> tuple[Any, ...]:
    return st.zeros((N,)).sync().partition((TILE,)), st.ones((N,)).sync(), st.ones((N,)).sync()


@pytest.mark.parametrize("dependent", [True, False])
def test_a_dependent_variant_launches_through_cuLaunchKernelEx_and_another_through_cuLaunchKernel(
        fake: FakeDriver, dependent: bool) -> None:
    kernel = loaded(dependent)
    assert kernel.programmatic is dependent
    stream = st.Stream("work")
    fake.record(kernel.symbol, kernel.layout.codes)
    values = values_for(kernel.layout.codes)
    kernel.launch_packed((3, 2, 5), kernel.packed(values), stream)  # type: ignore[arg-type]
    assert fake.launches == [Launch(kernel.symbol, (3, 2, 5), stream.address, values, threading.get_ident(),
                                    programmatic=dependent)]


def test_the_runtime_launches_each_kernel_as_compiled(fake: FakeDriver) -> None:
    """``CudaBackend.prepare`` passes ``CompiledVariant.dependent_launch`` on: ``add`` (the default
    options) is compiled with it, ``plain`` without."""
    stream = st.current_backend().default_stream
    for kernel, programmatic in ((add, True), (plain, False)):
        args = kernel(*tensors()).enqueue(stream)
        (plan,) = kernel.launch_cache.plans.values()
        runnable = plan.launcher.kernel
        assert runnable.programmatic is programmatic
        fake.record(runnable.symbol, runnable.layout.codes)
        z, x, y = kernel(*args).enqueue(stream)
        last = fake.launches[-1]
        assert last.programmatic is programmatic and last.grid == (2, 1, 1) and last.stream == stream.address
        assert last.params[::3] == tuple(h._array.ptr for h in (z, x, y))


def test_before_sm_90_every_launch_is_an_ordinary_one(fake: FakeDriver, monkeypatch: pytest.MonkeyPatch) -> None:
    """Programmatic dependent launch needs sm_90 (the kernel's wait is a no-op before): an
    sm_80 device launches even a waiting kernel through cuLaunchKernel."""
    backend = st.current_backend()
    compiled = add.compile_variant(backend.target, S=(TILE,))
    assert compiled.dependent_launch and backend.prepare(compiled).programmatic
    for older in ("sm_80", "sm_89"):
        monkeypatch.setattr(backend, "target", older)
        kernel = backend.prepare(compiled)
        assert not kernel.programmatic
        fake.record(kernel.symbol, kernel.layout.codes)
        kernel.launch_packed((1, 1, 1), kernel.packed(values_for(kernel.layout.codes)), backend.default_stream)
        assert fake.launches[-1].programmatic is False


def test_a_failed_dependent_launch_is_an_error_naming_cuLaunchKernelEx(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    fake.launch_error = CUresult.CUDA_ERROR_INVALID_VALUE
    for dependent, call in ((True, "cuLaunchKernelEx"), (False, "cuLaunchKernel")):
        kernel = loaded(dependent)
        with pytest.raises(CudaError, match=f"^{call} failed: CUDA_ERROR_INVALID_VALUE") as failed:
            kernel.launch_packed((1, 1, 1), kernel.packed(values_for(kernel.layout.codes)), stream)
        assert failed.value.call == call
    args = tensors()  # the launcher of a plan (the hot path) names it too
    with pytest.raises(CudaError, match="^cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE") as refused:
        add(*args).sync()
    fake.launch_error = CUresult.CUDA_SUCCESS
    add(*refused.value.returned).sync()  # the handles came back on the error


def test_a_dependent_launch_in_a_capture_is_a_programmatic_node(fake: FakeDriver) -> None:
    """In a real graph, the node's edge from the kernel before it on its stream is a programmatic edge."""
    mine, others = tensors(), tensors()
    with st.Graph.scope() as scope:
        mine = scope.record(add(*mine))
        mine = scope.record(add(*mine))
        others = scope.record(plain(*others))
    nodes = list(fake.graphs.values())[-1]  # the capture's
    assert [n.programmatic for n in nodes] == [True, True, False]
    assert nodes[1].after == frozenset({0}) and nodes[2].after == frozenset({1})  # in order on the scope's stream
    scope.graph.replay()  # type: ignore[union-attr]
    scope.graph.release()  # type: ignore[union-attr]


def test_the_c_call_passes_the_launch_config_as_cuda_h_lays_it_out() -> None:
    """The bytes ``launch_kernel_ex`` hands the driver, read at cuda.h's offsets (CUDA 12 and 13):
    CUlaunchConfig {7 x unsigned, CUstream @32, CUlaunchAttribute* @40, unsigned numAttrs @48},
    CUlaunchAttribute {id @0, value @8 (a 64-byte union)} of 72 bytes."""
    from safetile.runtime.cuda._launch import launch_kernel_ex

    seen: list[tuple[Any, ...]] = []

    def stand_in(config: Any, f: int | None, params: int | None, extra: int | None) -> int:
        raw = ctypes.string_at(ctypes.addressof(config.contents), 56)
        grid_block_shared, stream, attrs, count = struct.unpack_from("=7I", raw), *struct.unpack_from("=QQI", raw, 32)
        seen.append((grid_block_shared, stream, count, ctypes.string_at(attrs, 72 * count), f, params, extra))
        return 0

    stub = CU_LAUNCH_KERNEL_EX(stand_in)
    address = ctypes.cast(stub, ctypes.c_void_p).value
    assert launch_kernel_ex(address, 0x10, 3, 2, 1, 0x20, 0x30) == 0
    attribute = struct.pack("=i4xi60x", PSS, 1)  # id, padding, value.programmaticStreamSerializationAllowed
    assert seen == [((3, 2, 1, 1, 1, 1, 0), 0x20, 1, attribute, 0x10, 0x30, None)]
    with pytest.raises(OverflowError, match="grid extent does not fit in 32 bits"):
        launch_kernel_ex(address, 0x10, 1 << 32, 1, 1, 0, 0)
    with pytest.raises(TypeError, match="launch_kernel_ex takes 7 arguments"):
        launch_kernel_ex(address, 0x10, 1, 1, 1)
    with pytest.raises(ValueError, match="no cuLaunchKernelEx address"):
        launch_kernel_ex(0, 0x10, 1, 1, 1, 0, 0)
    assert len(seen) == 1


def test_the_bindings_route_builds_cuda_pythons_own_config() -> None:
    """``kernel_launch(..., programmatic=True)`` without the C call, on cuda-python's real config
    classes (only the driver call is a stand-in): the struct they hold is what the stand-in reads."""
    real = pytest.importorskip("cuda.bindings.driver")
    calls: list[tuple[Any, ...]] = []
    bindings = types.SimpleNamespace(
        CUlaunchAttribute=real.CUlaunchAttribute, CUlaunchAttributeID=real.CUlaunchAttributeID,
        CUlaunchConfig=real.CUlaunchConfig, cuLaunchKernelEx=lambda *args: calls.append(args) or (0,))
    saved = driver._driver, driver.cu_launch_kernel_ex_address
    driver._driver, driver.cu_launch_kernel_ex_address = bindings, lambda: None  # type: ignore[assignment]
    try:
        assert kernel_launch(0x10, programmatic=True)(3, 2, 1, 0x20, 0x30) == 0
    finally:
        driver._driver, driver.cu_launch_kernel_ex_address = saved
    ((config, function, params, extra),) = calls
    assert (function, params, extra) == (0x10, 0x30, 0)
    c = CLaunchConfig.from_address(config.getPtr())  # the C struct cuda-python passes to libcuda
    assert ((c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY, c.blockDimZ, c.sharedMemBytes, c.hStream,
             c.numAttrs) == (3, 2, 1, 1, 1, 1, 0, 0x20, 1))
    assert (c.attrs[0].id, c.attrs[0].value.programmaticStreamSerializationAllowed) == (PSS, 1)


def fake_config(**changes: Any) -> CUlaunchConfig:
    """The config of a programmatic launch as cuda-python's route builds it, with ``changes``."""
    attribute = CUlaunchAttribute()
    attribute.id = changes.pop("id", CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
    attribute.value.programmaticStreamSerializationAllowed = changes.pop("allowed", 1)
    config = CUlaunchConfig()
    config.gridDimX = config.gridDimY = config.gridDimZ = 1
    config.blockDimX = config.blockDimY = config.blockDimZ = 1
    config.attrs, config.numAttrs = [attribute], 1
    for name, value in changes.items():
        setattr(config, name, value)
    return config


REFUSED = [dict(id=PSS - 1), dict(allowed=0), dict(blockDimX=128), dict(sharedMemBytes=16), dict(numAttrs=0),
           dict(numAttrs=2)]
"""Configs the stand-in refuses: another attribute or value, a block, shared memory, no or two attributes."""


@pytest.mark.parametrize("change", REFUSED, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_the_stand_in_refuses_any_other_launch_config(change: dict[str, Any]) -> None:
    """What makes the tests above fail if the runtime passed another config (an attribute id of 5,
    say): ``CUDA_ERROR_INVALID_VALUE`` on both routes, nothing launched."""
    fake = FakeDriver()
    fake.functions[0x10] = "k"
    fake.record("k", ())
    assert fake.cuLaunchKernelEx(fake_config(), 0x10, 0, 0) == (CUresult.CUDA_SUCCESS,)  # the config as sent
    config = fake_config(**change)
    assert fake.cuLaunchKernelEx(config, 0x10, 0, 0) == (CUresult.CUDA_ERROR_INVALID_VALUE,)
    attributes = (CLaunchAttribute * 2)()
    for given, into in zip(config.attrs * 2, attributes):  # room for numAttrs=2
        into.id = given.id
        into.value.programmaticStreamSerializationAllowed = given.value.programmaticStreamSerializationAllowed
    c = CLaunchConfig(config.gridDimX, config.gridDimY, config.gridDimZ, config.blockDimX, config.blockDimY,
                      config.blockDimZ, config.sharedMemBytes, None, attributes, config.numAttrs)
    c_launch_ex = CU_LAUNCH_KERNEL_EX(fake.launch_kernel_ex_address)
    assert c_launch_ex(ctypes.pointer(c), 0x10, None, None) == CUresult.CUDA_ERROR_INVALID_VALUE
    assert len(fake.launches) == 1 and fake.c_launches == 1


def test_the_stand_ins_config_classes_are_cuda_pythons() -> None:
    """The bindings route's fields and attribute id, as cuda-python 13 names them."""
    real = pytest.importorskip("cuda.bindings.driver")
    assert (real.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION ==
            CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION == PSS)
    for fake_class, real_class in ((CUlaunchConfig, real.CUlaunchConfig), (CUlaunchAttribute, real.CUlaunchAttribute)):
        assert set(fake_class.__slots__) <= set(dir(real_class))
    assert "programmaticStreamSerializationAllowed" in dir(real.CUlaunchAttribute().value)
