"""Runtime ownership and launch refusals.

Moving a tensor kills its handle (errors name the holder); a launch moves its
arguments in and gives them back; refused launches (overlapping outputs,
different grids, failed launch checks, wrong arguments) change no data and
leave every handle usable.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr

from safetile.dialects.tile_safety import LaunchCheckAttr, TileBoundAttr

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import LaunchRefused, OwnershipError


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel
def two_outputs(a: st.Mut[f32, "S"], b: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    t = st.load_tile_like(x, a)
    a.store(t)
    b.store(t + 1.0)


@st.kernel
def checked_add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


def rand(n: int, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).random(n) + 0.5).astype(np.float32)


def tensors(n: int = 300, tile: int = 128):  # noqa: ANN201
    z = st.full((n,), np.nan, f32).sync().partition((tile,))
    x, y = st.from_numpy(rand(n, 1)).sync(), st.from_numpy(rand(n, 2)).sync()
    return z, x, y


def test_launch_moves_arguments_in_and_gives_them_back() -> None:
    z, x, y = tensors()
    xs, ys = x.numpy(), y.numpy()
    op = add(z, x, y)
    for old in (x, y):
        with pytest.raises(OwnershipError, match=r"DeviceOp #\d+ 'add\[3, 1, 1\]' \(pending\)"):
            old.numpy()
    with pytest.raises(OwnershipError, match="pending"):
        z.unpartition()
    z2, x2, y2 = op.sync()
    assert (type(z2), type(x2), type(y2)) == (type(z), type(x), type(y))
    assert z2.shape == z.shape and z2.grid == z.grid
    np.testing.assert_array_equal(z2.unpartition().numpy(), xs + ys)
    np.testing.assert_array_equal(x2.numpy(), xs)
    with pytest.raises(OwnershipError, match=r"\(done\).*use the handle it gave back"):
        x.numpy()


def test_partition_moves_the_tensor() -> None:
    t = st.zeros((100, 30), f32).sync()
    p = t.partition((64, 16))
    assert p.grid == (2, 2)
    with pytest.raises(OwnershipError, match=r"moved into Partition\(tile=\(64, 16\), grid=\(2, 2\)\)"):
        t.numpy()
    with pytest.raises(OwnershipError, match="Partition"):
        t.partition((8, 8))
    back = p.unpartition()
    assert back.numpy().shape == (100, 30)
    with pytest.raises(OwnershipError, match="unpartition"):
        p.unpartition()


def test_partition_rank_and_shape_are_checked() -> None:
    with pytest.raises(ValueError, match="rank 1 to 3"):
        st.zeros((2, 2, 2, 2), f32).sync().partition((1, 1, 1, 1))
    with pytest.raises(ValueError, match="rank"):
        st.zeros((4, 4), f32).sync().partition((4,))


def test_a_moved_partition_cannot_be_launched_again() -> None:
    z, x, y = tensors()
    first = add(z, x, y)
    x3, y3 = st.from_numpy(rand(300)).sync(), st.from_numpy(rand(300)).sync()
    with pytest.raises(OwnershipError, match=r"'add\[3, 1, 1\]' \(pending\)"):
        add(z, x3, y3)
    x3.numpy(), y3.numpy()  # the refused launch moved nothing
    first.sync()


def test_shared_handles_are_borrowed_by_many_launches() -> None:
    x = st.shared(st.from_numpy(rand(300, 1)).sync())
    y = st.shared(st.from_numpy(rand(300, 2)).sync())
    z1 = st.full((300,), np.nan, f32).sync().partition((128,))
    z2 = st.full((300,), np.nan, f32).sync().partition((64,))
    op1, op2 = add(z1, x, y), add(z2, x, y)
    np.testing.assert_array_equal(x.numpy(), rand(300, 1))  # reading is fine
    with pytest.raises(OwnershipError, match=r"in-flight work: DeviceOp #\d+ 'add\[3, 1, 1\]' \(pending\)"):
        x.unshare()
    (a, xa, ya), (b, _, _) = st.zip(op1, op2).sync()
    assert xa is x and ya is y  # same type back: the shared handle
    np.testing.assert_array_equal(a.unpartition().numpy(), b.unpartition().numpy())
    t = x.unshare()
    with pytest.raises(OwnershipError, match="unshare"):
        x.numpy()
    assert t.numpy().shape == (300,)


def snapshot(*arrays: np.ndarray) -> list[np.ndarray]:
    return [a.copy() for a in arrays]


def test_overlapping_output_is_refused_and_changes_nothing() -> None:
    host = rand(600, 3)
    before = host.copy()
    z = st.from_numpy(host[:300], copy=False).sync().partition((128,))
    x = st.from_numpy(host[200:500], copy=False).sync()  # overlaps z
    y = st.from_numpy(rand(300)).sync()
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(300,\) overlaps the memory of argument 'x'"):
        add(z, x, y)
    np.testing.assert_array_equal(host, before)
    np.testing.assert_array_equal(x.numpy(), before[200:500])
    np.testing.assert_array_equal(z.unpartition().numpy(), before[:300])
    y.numpy()


def test_overlap_is_checked_again_when_the_memory_changes() -> None:
    """A plan remembers the addresses it last found disjoint; other memory of the
    same shapes (the same plan) is checked afresh."""
    host = rand(600, 5)
    z = st.from_numpy(host[:300], copy=False).sync().partition((128,))
    x, y = st.from_numpy(host[300:600], copy=False).sync(), st.from_numpy(rand(300)).sync()
    z, x, y = add(z, x, y).sync()  # disjoint: runs, and the verdict is kept
    z, x, y = add(z, x, y).sync()  # the same memory: runs
    overlapping = st.from_numpy(host[100:400], copy=False).sync()  # same shape and strides, overlaps z
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(300,\) overlaps the memory of argument 'x'"):
        add(z, overlapping, y)
    z, x, y = add(z, x, y).sync()  # the first memory again: runs


def test_output_overlapping_a_shared_input_is_refused() -> None:
    host = rand(300, 4)
    z = st.from_numpy(host, copy=False).sync().partition((128,))
    x = st.shared(st.from_numpy(host, copy=False).sync())
    y = st.from_numpy(rand(300)).sync()
    with pytest.raises(LaunchRefused, match="overlaps"):
        add(z, x, y)
    np.testing.assert_array_equal(host, rand(300, 4))
    x.unshare()  # no launch holds it


def test_outputs_with_different_grids_are_refused() -> None:
    a = st.full((100,), np.nan, f32).sync().partition((64,))
    b = st.full((200,), np.nan, f32).sync().partition((64,))
    x = st.from_numpy(rand(200)).sync()
    with pytest.raises(LaunchRefused, match=r"different grids: 'a' \(2, 1, 1\), 'b' \(4, 1, 1\)"):
        two_outputs(a, b, x)
    assert np.isnan(a.unpartition().numpy()).all() and np.isnan(b.unpartition().numpy()).all()
    np.testing.assert_array_equal(x.numpy(), rand(200))


def test_outputs_with_one_grid_run() -> None:
    a = st.full((100,), np.nan, f32).sync().partition((64,))
    b = st.full((100,), np.nan, f32).sync().partition((64,))
    a, b, _ = two_outputs(a, b, st.from_numpy(rand(100)).sync()).sync()
    np.testing.assert_array_equal(b.unpartition().numpy(), a.unpartition().numpy() + 1)


def test_wrong_arguments_are_refused_before_anything_moves() -> None:
    z, x, y = tensors()
    with pytest.raises(LaunchRefused, match=r"'z' is st.Mut: pass a Partition"):
        add(x, z, y)
    with pytest.raises(LaunchRefused, match="takes 3 arguments"):
        add(z, x)
    with pytest.raises(LaunchRefused, match="passed twice"):
        add(z, x, x)
    with pytest.raises(st.CompileError, match="f16"):
        add(z, x, st.from_numpy(rand(300).astype(np.float16)).sync())
    z, x, y = add(z, x, y).sync()  # everything is still usable
    np.testing.assert_array_equal(z.unpartition().numpy(), x.numpy() + y.numpy())


def test_launch_checks_are_evaluated_before_launch() -> None:
    z, x, y = tensors()
    spec = dict(
        z=st.TensorSpec(f32, (300,), (1,), (128,)), x=st.TensorSpec(f32, (300,), (1,)),
        y=st.TensorSpec(f32, (300,), (1,)),
    )
    # What the bounds-check pass records (simulated here on the variant).
    variant = checked_add.specialize(**spec)
    variant.entry.attributes["tile_safety.launch_checks"] = ArrayAttr([
        LaunchCheckAttr("x covers z", TileBoundAttr.of("z", 0, 1, -1), TileBoundAttr.of("x", 0, 1)),
        LaunchCheckAttr("y covers z", TileBoundAttr.of("z", 0, 1, -1), TileBoundAttr.of("y", 0, 1)),
    ])
    z, x, y = checked_add(z, x, y).sync()  # holds
    short = st.from_numpy(rand(300)[:200].copy()).sync()
    with pytest.raises(LaunchRefused, match=r"launch check failed: x covers z: tile index 299 is out of range for "
                       r"200 tile\(s\) \(ceil_div\(z.shape\[0\], 1\) - 1 < ceil_div\(x.shape\[0\], 1\) is false "
                       r"with x: shape \(200,\), z: shape \(300,\) partition \(128,\)\)"):
        checked_add(z, short, y)
    np.testing.assert_array_equal(z.unpartition().numpy(), x.numpy() + y.numpy())
    short.numpy()


def test_a_failed_launch_gives_the_arguments_back_on_the_error() -> None:
    @st.kernel
    def fails(z: st.Mut[f32, "S"], *, S: st.Shape):
        st.device_assert(st.zeros(S, st.i32) > 0, "always fails")
        z.store(st.zeros(S, f32))

    z = st.full((64,), np.nan, f32).sync().partition((32,))
    op = fails(z)
    with pytest.raises(Exception, match="always fails") as info:
        op.sync()
    assert "failed" in op.describe()
    (z2,) = info.value.returned
    assert z2.unpartition().numpy().shape == (64,)


def test_launch_checks_of_the_bounds_check_pass_refuse_short_inputs() -> None:
    pytest.importorskip("safetile.passes.pipeline")
    z = st.full((300,), np.nan, f32).sync().partition((128,))
    x, y = st.from_numpy(rand(200, 1)).sync(), st.from_numpy(rand(300, 2)).sync()
    with pytest.raises(
        LaunchRefused,
        match=r"launch check failed: .*test_runtime_ownership.py:\d+:\d+: .*: tile index 2 is out of range for 2 "
        r"tile\(s\) \(ceil_div\(z.shape\[0\], 128\) - 1 < ceil_div\(x.shape\[0\], 128\) is false with "
        r"x: shape \(200,\), z: shape \(300,\) partition \(128,\)\)",
    ):
        add(z, x, y)
    assert np.isnan(z.unpartition().numpy()).all()
    np.testing.assert_array_equal(x.numpy(), rand(200, 1))
