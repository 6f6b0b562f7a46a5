"""Runtime: allocation ops, lazy DeviceOps and their composition, streams,
``await``, the variant cache and backend selection (its notice in a fresh process:
test_launch_seam.py)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import DeviceOpError, Shared, Stream

@st.kernel
def scale(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], alpha: f32, *, S: st.Shape):
    z.store(st.load_tile_like(x, z) * alpha)


def test_allocation_ops() -> None:
    z = st.zeros((3, 4), st.f16).sync()
    assert (z.dtype, z.shape, z.strides) == (st.f16, (3, 4), (4, 1))
    assert z.numpy().dtype == np.float16 and not z.numpy().any()
    np.testing.assert_array_equal(st.ones(5, st.i32).sync().numpy(), np.ones(5, np.int32))
    np.testing.assert_array_equal(st.full((2,), 2.5).sync().numpy(), [2.5, 2.5])
    np.testing.assert_array_equal(st.arange(2, 11, 3).sync().numpy(), [2, 5, 8])
    b = st.from_numpy(np.array([1.5, -2.0, 3.0], np.float32), st.bf16).sync()
    assert b.dtype == st.bf16 and b.numpy().dtype == np.float32
    np.testing.assert_array_equal(b.numpy(), [1.5, -2.0, 3.0])
    host = np.arange(4, dtype=np.float32)
    copied, wrapped = st.from_numpy(host).sync(), st.from_numpy(host, copy=False).sync()
    host[0] = 9
    assert copied.numpy()[0] == 0 and wrapped.numpy()[0] == 9
    out = wrapped.numpy()
    out[1] = 7  # numpy() is a copy
    assert wrapped.numpy()[1] == 1


def test_kernel_calls_are_lazy() -> None:
    host = np.full(100, np.nan, np.float32)
    z = st.from_numpy(host, copy=False).sync().partition((64,))
    op = scale(z, st.from_numpy(np.ones(100, np.float32)).sync(), 3.0)
    assert np.isnan(host).all()  # nothing ran yet
    z, _, alpha = op.sync()
    assert alpha == 3.0
    np.testing.assert_array_equal(host, np.full(100, 3.0, np.float32))
    with pytest.raises(DeviceOpError, match="already driven"):
        op.sync()


def test_then_zip_streams_and_await() -> None:
    stream = Stream("s1")
    x = st.from_numpy(np.arange(1, 65, dtype=np.float32)).sync()

    def second(args):  # noqa: ANN001, ANN202
        z, x, _ = args
        return scale(st.full((64,), np.nan).sync().partition((32,)), st.shared(z.unpartition()), 2.0)

    first = scale(st.full((64,), np.nan).sync().partition((32,)), x, 0.5)
    op = first.then(second)
    z, shared_x, _ = op.sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().numpy(), np.arange(1, 65, dtype=np.float32))
    with pytest.raises(DeviceOpError, match="composed into"):
        first.sync()
    a, b = st.zip(st.zeros(3), st.ones(2)).sync()
    assert a.shape == (3,) and b.numpy().sum() == 2

    async def main():  # noqa: ANN202
        return await st.full((2,), 4.0)

    assert asyncio.run(main()).numpy().tolist() == [4.0, 4.0]
    with pytest.raises(TypeError, match="DeviceOps"):
        st.zip(st.zeros(1), 3)  # type: ignore[arg-type]


def test_shared_op_gives_a_read_only_handle_many_launches_hold() -> None:
    x = st.from_numpy(np.arange(1, 33, dtype=np.float32)).shared().sync()
    assert isinstance(x, Shared)
    z1, _, _ = scale(st.full((32,), np.nan).sync().partition((32,)), x, 2.0).sync()
    z2, _, _ = scale(st.full((32,), np.nan).sync().partition((32,)), x, 3.0).sync()
    np.testing.assert_array_equal(z1.unpartition().numpy(), 2 * np.arange(1, 33))
    np.testing.assert_array_equal(z2.unpartition().numpy(), 3 * np.arange(1, 33))


def test_variant_is_inferred_and_cached() -> None:
    for n in (100, 300):  # dynamic extents share a variant
        z = st.full((n,), np.nan).sync().partition((64,))
        scale(z, st.from_numpy(np.ones(n, np.float32)).sync(), 1.0).sync()
    before = (len(scale.variants), len(scale.launch_cache.runnables))
    z = st.full((200,), np.nan).sync().partition((128,))  # a new S: a new variant
    scale(z, st.from_numpy(np.ones(200, np.float32)).sync(), 1.0).sync()
    assert (len(scale.variants), len(scale.launch_cache.runnables)) == (before[0] + 1, before[1] + 1)
    z = st.full((200,), np.nan).sync().partition((128,))
    scale(z, st.from_numpy(np.ones(200, np.float32)).sync(), 1.0).sync()
    assert (len(scale.variants), len(scale.launch_cache.runnables)) == (before[0] + 1, before[1] + 1)


def chosen(monkeypatch: pytest.MonkeyPatch, wanted: str | None) -> str:
    """What a fresh process would choose with ``SAFETILE_BACKEND=wanted``: its description, or
    the error its first launch raises."""
    from safetile.runtime import backend

    monkeypatch.setattr(backend, "_current", None)  # chosen again here, and the suite's choice kept
    if wanted is None:
        monkeypatch.delenv(backend.ENV, raising=False)
    else:
        monkeypatch.setenv(backend.ENV, wanted)
    try:
        return backend.current_backend().describe()
    except (RuntimeError, ValueError) as err:
        return f"{type(err).__name__}: {err}"


def test_the_default_backend_is_the_gpu_where_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    default, forced = chosen(monkeypatch, None), chosen(monkeypatch, "cuda")
    if "CPU interpreter (no GPU: " in default:  # a machine without a GPU
        assert forced.startswith("RuntimeError: SAFETILE_BACKEND=cuda but there is no usable GPU")
    else:  # a machine with one: the default is the GPU
        assert "running kernels on the GPU" in default and "running kernels on the GPU" in forced
    assert chosen(monkeypatch, "tpu").startswith("ValueError: SAFETILE_BACKEND='tpu'")


@pytest.mark.parametrize("dtype", [st.bf16, st.f8e4m3fn, st.f16, st.f32, st.i32])
def test_a_fill_value_keeps_its_shape_in_storage(dtype: st.DType) -> None:
    """``st.zeros(..., st.bf16)``'s fill value is one element (the CUDA backend's memset reads it as an int)."""
    from safetile.runtime.tensor import host_values

    assert host_values(np.asarray(1.0), dtype).shape == ()
    assert host_values(np.ones((2, 3)), dtype).shape == (2, 3)
