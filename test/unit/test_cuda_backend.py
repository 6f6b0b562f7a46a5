"""The CUDA backend's parts that need no GPU: JIT through the cache with and
without a toolchain, driver errors, device selection without a driver."""

from __future__ import annotations

from pathlib import Path

import pytest

import safetile as st
from safetile import f32
from safetile.backend import cache, toolchain
from safetile.runtime.cuda import driver
from safetile.backend.cache import MissingCubin, cubin_for


@st.kernel
def double(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) * 2.0)


def module() -> object:
    return double.compile_variant(z=st.TensorSpec(f32, (256,), (1,), (128,)), x=st.TensorSpec(f32, (256,), (1,))).module


def no_toolchain(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> toolchain.Toolchain:
        raise toolchain.ToolchainError("tileiras not found (no nvidia-cuda-tileiras wheel, not on PATH, no CUDA_HOME)")

    monkeypatch.setattr(toolchain, "default_toolchain", missing)


def test_jit_compiles_through_the_cache_and_reuses_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    first = cubin_for(module(), "sm_90")
    assert first.compiled and first.kernels == ("double_128",)
    again = cubin_for(module(), "sm_90")
    assert not again.compiled and again.cubin == first.cubin


def test_a_cached_cubin_serves_a_machine_without_tileiras(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    built = st.warm_up(double, [dict(z=st.TensorSpec(f32, (256,), (1,), (128,)),
                                     x=st.TensorSpec(f32, (256,), (1,)))], arch="sm_90")
    assert built[0].cubin is not None and built[0].cubin.is_relative_to(tmp_path)
    no_toolchain(monkeypatch)
    found = cubin_for(module(), "sm_90")
    assert not found.compiled and found.path == built[0].cubin


def test_neither_cache_nor_toolchain_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    no_toolchain(monkeypatch)
    with pytest.raises(MissingCubin) as info:
        cubin_for(module(), "sm_90", kernel_name="double_128")
    text = str(info.value)
    assert "'double_128' for sm_90 is not in the cubin cache" in text and str(tmp_path) in text
    assert "pip install 'safetile[toolchain]'" in text and "st.warm_up(kernel, specs, arch='sm_90')" in text


def test_sanitized_builds_are_separate_cache_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    plain = cubin_for(module(), "sm_90")
    sanitized = cubin_for(module(), "sm_90", sanitize="memcheck")
    assert sanitized.build_key != plain.build_key and sanitized.options.sanitize == "memcheck"
    assert sanitized.cubin != plain.cubin


def test_driver_errors_name_the_call_and_sticky_errors_say_so() -> None:
    err = driver.CudaError("cuMemAllocAsync", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory")
    assert str(err) == "cuMemAllocAsync failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
    fault = driver.CudaError("cuStreamSynchronize", "CUDA_ERROR_ILLEGAL_ADDRESS")
    assert "unusable after this error" in str(fault) and fault.call == "cuStreamSynchronize"


def test_without_a_driver_the_backend_is_refused_with_the_reason() -> None:
    try:
        bindings = driver.load()
    except driver.NoGpu as err:
        assert "no CUDA driver" in str(err) or "cuda-python is not installed" in str(err) or "cuInit" in str(err)
    else:  # a machine with a GPU
        assert hasattr(bindings, "cuLaunchKernel")


def test_a_malformed_device_ordinal_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from safetile.runtime.cuda.backend import CudaBackend

    monkeypatch.setenv("SAFETILE_DEVICE", "gpu1")
    with pytest.raises(ValueError, match=r"SAFETILE_DEVICE='gpu1': expected a device ordinal"):
        CudaBackend()


def test_parameters_are_packed_by_the_launch_abi() -> None:
    import ctypes
    import struct

    from xdsl.dialects.builtin import BFloat16Type, Float32Type, IntegerType

    from safetile.dialects.cuda_tile.types import PointerType, TileType
    from safetile.runtime.cuda.kernels import ParameterLayout

    types = [TileType((), PointerType(Float32Type())), TileType((), IntegerType(32)), TileType((), IntegerType(32)),
             TileType((), Float32Type()), TileType((), BFloat16Type())]
    layout = ParameterLayout("k", types)
    assert layout.offsets == [0, 8, 12, 16, 20]
    params = layout.new()
    layout.pack([0x7F0000001000, 300, 1, 2.5, 1.0 + 2**-9], params)  # bf16 rounds 1 + 2^-9 to even: 1.0
    raw = ctypes.string_at(params.buffer, 24)
    assert struct.unpack_from("<QiifH", raw) == (0x7F0000001000, 300, 1, 2.5, 0x3F80)
    pointers = ctypes.cast(params.address, ctypes.POINTER(ctypes.c_void_p))
    assert [pointers[i] - ctypes.addressof(params.buffer) for i in range(5)] == layout.offsets
    with pytest.raises(OverflowError, match=r"a parameter of 'k' does not fit its type .*split tensors of 2\^31"):
        layout.pack([0, 2**31, 1, 0.0, 0.0], params)
