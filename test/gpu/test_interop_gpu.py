"""Interop on the GPU: torch, CuPy and JAX arrays and safetile tensors share memory (marked ``gpu``).

Needs a GPU, safetile's cuda backend (cuda-python, and tileiras or a cubin
cache holding ``warm_up_specs()``, which test/gpu/build_cache.py compiles) and
each library tested (a test skips without its own).

    python -m pytest test/gpu/test_interop_gpu.py -m gpu -v
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import Tensor, current_backend
from safetile.runtime.interop import from_dlpack

pytestmark = pytest.mark.gpu

N = 1000
TILE = 128


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


def warm_up_specs() -> list[tuple[st.Kernel, dict[str, Any]]]:
    """The variants these tests launch (what a launch derives from its tensors)."""
    vector = st.TensorSpec(f32, (N,), (1,), None, True)
    return [(add, dict(z=st.TensorSpec(f32, (N,), (1,), (TILE,), True), x=vector, y=vector))]


@pytest.fixture(autouse=True)
def cuda_backend() -> None:
    # conftest.py runs gpu tests on the CPU interpreter while a cache is
    # built; these need GPU arrays, so they run on the cuda backend only.
    if current_backend().name != "cuda":
        pytest.skip("needs safetile's cuda backend (a GPU and cuda-python)")


def launch_add(x: Tensor, y: Tensor) -> Tensor:
    """``x + y`` computed by a safetile kernel reading ``x`` and ``y`` in place."""
    z, _, _ = add(st.zeros(x.shape, f32).sync().partition((TILE,)), x, y).sync()
    return z.unpartition()


def test_torch_tensors_in_and_out_without_copies() -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(N, dtype=torch.float32, device="cuda")
    y = torch.full((N,), 2.0, device="cuda")
    xs, ys = from_dlpack(x), from_dlpack(y)
    assert xs.storage().ptr == x.data_ptr() and ys.storage().ptr == y.data_ptr()

    out = launch_add(xs, ys)
    back = torch.from_dlpack(out)
    assert back.data_ptr() == out.storage().ptr
    torch.testing.assert_close(back, x + y)

    side = torch.cuda.Stream()  # torch passes this stream to __dlpack__: our export makes it wait
    with torch.cuda.stream(side):
        total = torch.from_dlpack(out).sum()
    assert total.item() == float((np.arange(N) + 2).sum())


def test_torch_bf16_arrives_as_bf16() -> None:
    torch = pytest.importorskip("torch")
    x = torch.tensor([1.0, -2.0, 0.5], dtype=torch.bfloat16, device="cuda")
    t = from_dlpack(x)  # torch's __cuda_array_interface__ has no bf16: DLPack carries it
    assert t.dtype == st.bf16 and t.storage().ptr == x.data_ptr()
    np.testing.assert_array_equal(t.numpy(), [1.0, -2.0, 0.5])
    back = torch.from_dlpack(t)
    assert back.dtype == torch.bfloat16 and back.data_ptr() == x.data_ptr()


def test_transposed_torch_tensor_keeps_its_strides() -> None:
    torch = pytest.importorskip("torch")
    a = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4).t()
    t = from_dlpack(a)
    assert t.shape == (4, 3) and t.strides == tuple(a.stride()) and t.storage().ptr == a.data_ptr()
    back = torch.from_dlpack(t)
    assert back.stride() == a.stride() and back.data_ptr() == a.data_ptr()
    torch.testing.assert_close(back, a)


def test_cupy_arrays_through_the_cuda_array_interface() -> None:
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(N, dtype=cupy.float32)
    y = cupy.full((N,), 2.0, dtype=cupy.float32)
    xs, ys = from_dlpack(x), from_dlpack(y)
    assert xs.storage().ptr == x.data.ptr and ys.storage().ptr == y.data.ptr

    out = launch_add(xs, ys)
    back = cupy.asarray(out)  # reads out.__cuda_array_interface__
    assert back.data.ptr == out.storage().ptr
    cupy.testing.assert_array_equal(back, x + y)
    assert cupy.from_dlpack(out).data.ptr == out.storage().ptr


def test_jax_arrays() -> None:
    jax = pytest.importorskip("jax")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU here")
    jnp = jax.numpy
    x = jnp.arange(N, dtype=jnp.float32)
    y = jnp.full((N,), 2.0, dtype=jnp.float32)
    out = launch_add(from_dlpack(x), from_dlpack(y))
    np.testing.assert_array_equal(np.asarray(jnp.from_dlpack(out)), np.arange(N) + 2)


def test_an_output_aliasing_an_imported_input_is_refused() -> None:
    torch = pytest.importorskip("torch")
    x = torch.ones(N, device="cuda")
    out, alias = from_dlpack(x), from_dlpack(x)  # two handles on torch's memory
    with pytest.raises(st.runtime.LaunchRefused, match="overlaps the memory of argument 'x'"):
        add(out.partition((TILE,)), alias, from_dlpack(torch.ones(N, device="cuda")))
    torch.testing.assert_close(x, torch.ones(N, device="cuda"))  # nothing ran
