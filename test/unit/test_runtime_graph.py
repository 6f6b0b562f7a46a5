"""Graphs (capture and replay), warm-up, and the CUDA backend's pure parts,
on the CPU backend (test/gpu runs the same on a GPU)."""

from __future__ import annotations

import numpy as np
import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import DeviceOpError, OwnershipError
from safetile.runtime.cuda.kernels import _offsets


@st.kernel
def inc(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + 1.0)


def parts(n: int = 64) -> tuple[st.Partition, st.Tensor]:
    return st.full((n,), np.nan).sync().partition((32,)), st.zeros((n,)).sync()


def test_op_graph_captures_without_running_and_replays() -> None:
    z, x = parts()
    g = inc(z, x).graph()
    with pytest.raises(OwnershipError, match=r"moved into DeviceOp #\d+ 'inc"):
        z.unpartition()  # z moved into the captured op; the graph holds what it returns
    g.replay()
    g.replay()
    g.sync()
    assert g.replays == 3
    z, x = g.release()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.ones(64, np.float32))
    with pytest.raises(DeviceOpError, match="was released"):
        g.replay()


def test_scope_records_ops_that_feed_each_other_and_replays_accumulate() -> None:
    a, b = st.zeros((64,)).sync(), st.full((64,), np.nan).sync()
    with st.Graph.scope() as s:
        b, a = s.record(inc(b.partition((32,)), a))  # b = a + 1
        b = b.unpartition()
        a, b = s.record(inc(a.partition((32,)), b))  # a = b + 1
        with pytest.raises(OwnershipError, match="while a graph is being captured"):
            b.numpy()
        a = a.unpartition()
    g = s.graph
    assert g is not None and g.replays == 0
    for _ in range(3):
        g.replay()
    with pytest.raises(OwnershipError, match="Graph"):
        a.numpy()  # held by the graph until released
    g.release()
    np.testing.assert_array_equal(a.numpy(), np.full(64, 6.0, np.float32))
    np.testing.assert_array_equal(b.numpy(), np.full(64, 5.0, np.float32))


def test_the_scope_names_its_capture_stream_for_foreign_work() -> None:
    """Work safetile does not launch (NCCL's collectives in examples/qwen3/tp.py) joins the graph
    through ``scope.stream``: the stream capturing inside the block, no longer after it."""
    with st.Graph.scope() as s:
        assert s.stream.capturing and s.stream is not st.current_backend().default_stream
        stream = s.stream
    assert not stream.capturing


def test_allocations_are_refused_inside_a_capture() -> None:
    with pytest.raises(DeviceOpError, match="allocates memory and cannot be recorded"):
        with st.Graph.scope() as s:
            s.record(st.zeros((8,)))
    z, x = parts()
    with pytest.raises(DeviceOpError, match="allocates memory"):
        st.zeros((8,)).then(lambda t: inc(z, x)).graph()


def test_graph_launch_is_a_lazy_op() -> None:
    z, x = parts()
    g = inc(z, x).graph()
    op = g.launch()
    assert g.replays == 0
    op.sync()
    assert g.replays == 1
    z, _ = g.release()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.ones(64, np.float32))


def test_warm_up_makes_the_first_launch_warm(tmp_path) -> None:  # noqa: ANN001
    @st.kernel
    def twice(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
        z.store(st.load_tile_like(x, z) * 2.0)

    spec = dict(z=st.TensorSpec(f32, (96,), (1,), (32,)), x=st.TensorSpec(f32, (96,), (1,)))
    (ready,) = st.warm_up(twice, [spec])
    assert ready.symbol == "twice_32" and ready.compiled
    (again,) = st.warm_up(twice, [spec])
    assert not again.compiled
    z, _ = twice(st.zeros((96,)).sync().partition((32,)), st.ones((96,)).sync()).sync()
    assert len(twice.variants) == 1  # the launch used the warmed-up variant
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(96, 2.0, np.float32))


def test_parameter_offsets_follow_c_alignment() -> None:
    # pointer, two i32, pointer, f16, f64: as a C struct of kernel parameters
    assert _offsets(["Q", "i", "i", "Q", "e", "d"]) == [0, 8, 12, 16, 24, 32]
    assert _offsets(["i", "Q"]) == [0, 8]


def test_a_prepared_launch_holds_its_arguments_and_runs_again_and_again() -> None:
    z, x = parts()
    shared = st.shared(st.full((64,), 2.0).sync())
    p = inc(z, shared).prepare()
    with pytest.raises(OwnershipError, match=r"moved into Prepared\(inc\[2, 1, 1\], 0 launches\)"):
        z.unpartition()
    with pytest.raises(OwnershipError, match="borrowed by in-flight work: Prepared"):
        shared.unshare()
    p.enqueue()
    p.sync()
    assert p.launches == 2
    z, shared = p.release()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(64, 3.0, np.float32))
    shared.unshare()  # released with the launch
    with pytest.raises(DeviceOpError, match="it was released"):
        p.enqueue()


def test_a_prepared_op_cannot_also_be_driven() -> None:
    z, x = parts()
    op = inc(z, x)
    p = op.prepare()
    with pytest.raises(DeviceOpError, match="already driven or composed"):
        op.sync()
    p.release()
