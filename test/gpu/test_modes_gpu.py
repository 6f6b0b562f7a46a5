"""Execution modes and ownership on the GPU (numpy only, so that the same
tests fill the cubin cache on a CPU machine, see conftest.py)."""

from __future__ import annotations

import asyncio
import os

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.runtime import DeviceOpError, LaunchRefused, OwnershipError

pytestmark = pytest.mark.gpu

N, TILE = 1 << 14, 1024


@st.kernel
def axpb(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], a: f32, b: f32, *, S: st.Shape):
    """z = a * x + b"""
    z.store(st.load_tile_like(x, z) * a + b)


def vec(value: float, n: int = N) -> st.Tensor:
    return st.full((n,), value).sync()


def test_sync_and_sync_on_a_stream() -> None:
    z, x, _, _ = axpb(vec(np.nan).partition((TILE,)), vec(2.0), 3.0, 1.0).sync()
    whole = z.unpartition()
    np.testing.assert_array_equal(whole.numpy(), np.full(N, 7.0, np.float32))
    stream = st.Stream("side")
    z, x, _, _ = axpb(whole.partition((TILE,)), x, 0.5, 0.0).sync_on(stream)
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(N, 1.0, np.float32))


def ping_pong(steps: int) -> st.DeviceOp:
    """``steps`` launches, each reading the previous one's output: a = a + 1 each step."""
    a, b = vec(0.0), vec(np.nan)

    def step(args):  # noqa: ANN001, ANN202
        out, inp, _, _ = args
        return axpb(inp.partition((TILE,)), out.unpartition(), 1.0, 1.0)

    op = axpb(b.partition((TILE,)), a, 1.0, 1.0)
    for _ in range(steps - 1):
        op = op.then(step)
    return op


def test_a_chain_of_a_thousand_launches_with_one_wait() -> None:
    z, *_ = ping_pong(1000).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(N, 1000.0, np.float32))


def test_async_with_asyncio() -> None:
    async def main() -> list[np.ndarray]:
        ops = [axpb(vec(np.nan).partition((TILE,)), vec(float(i)), 2.0, 0.0) for i in range(4)]
        results = await asyncio.gather(*ops)
        chained = await ping_pong(10)
        return [z.unpartition().numpy() for z, *_ in results] + [chained[0].unpartition().numpy()]

    outs = asyncio.run(main())
    for i in range(4):
        np.testing.assert_array_equal(outs[i], np.full(N, 2.0 * i, np.float32))
    np.testing.assert_array_equal(outs[4], np.full(N, 10.0, np.float32))


def test_graph_replayed_many_times() -> None:
    a, b = vec(0.0), vec(np.nan)
    with st.Graph.scope() as s:
        b, a, _, _ = s.record(axpb(b.partition((TILE,)), a, 1.0, 1.0))  # b = a + 1
        a, b, _, _ = s.record(axpb(a.partition((TILE,)), b.unpartition(), 1.0, 1.0))  # a = b + 1
        a = a.unpartition()
    g = s.graph
    for _ in range(500):
        g.replay()
    g.release()
    np.testing.assert_array_equal(a.numpy(), np.full(N, 1000.0, np.float32))


def test_a_graph_branch_runs_beside_and_its_output_is_waited_for() -> None:
    """The branch (40 launches) is far longer than the main line beside it (2): the last
    launch reads the branch's output, so it must wait, or ``a`` would be stale."""
    a, b, s, t = vec(0.0), vec(np.nan), vec(0.0), vec(np.nan)
    with st.Graph.scope() as scope:
        with scope.branch() as branch:
            for _ in range(20):
                t, s, _, _ = branch.record(axpb(t.partition((TILE,)), s, 1.0, 1.0))  # t = s + 1
                s, t, _, _ = branch.record(axpb(s.partition((TILE,)), t.unpartition(), 1.0, 1.0))  # s = t + 1
                s = s.unpartition()
        b, a, _, _ = scope.record(axpb(b.partition((TILE,)), a, 1.0, 1.0))  # b = a + 1, beside the branch
        a, s, _, _ = scope.record(axpb(a.partition((TILE,)), s, 1.0, 0.0))  # a = s
        a = a.unpartition()
    graph = scope.graph
    for _ in range(50):
        graph.replay()
    graph.release()
    np.testing.assert_array_equal(a.numpy(), np.full(N, 2000.0, np.float32))
    np.testing.assert_array_equal(b.unpartition().numpy(), np.full(N, 1961.0, np.float32))


@st.kernel
def next_tile_plus_one(z: st.Mut[f32, ("T",)], x: st.Ref[f32, (-1,)], *, T: int):
    """z's tile i = x's tile i + 1 (the last reads the first) + 1: each block reads what another
    block of the launch before wrote."""
    i, _, _ = st.tile_block_id()
    px = x.partition((T,))
    z.store(px.load(((i + 1) % px.num_tiles(0),)) + 1.0)


def test_early_starts_see_everything_the_launch_before_wrote() -> None:
    """Every launch may start while the one before drains (grid-dependency): 4,096 blocks, more
    than one wave, each reading another block's tile of the launch before, 100 launches a
    graph, 5 replays.  A block that read before the launch before had finished would leave a
    value short of 500.  (Filling a cache on the CPU: 4 blocks, one replay, the same variant.)"""
    n, replays = (4 * TILE, 1) if os.environ.get("SAFETILE_AOT_ARCHS") else (4096 * TILE, 5)
    spec = {"z": st.TensorSpec(dtype=f32, shape=(n,), partition=(TILE,)), "x": st.TensorSpec(dtype=f32, shape=(n,))}
    assert next_tile_plus_one.compile_variant(T=TILE, **spec).dependent_launch
    a, b = vec(0.0, n), vec(np.nan, n)
    with st.Graph.scope() as scope:
        for _ in range(50):
            b, a = scope.record(next_tile_plus_one(b.partition((TILE,)), a))
            a, b = scope.record(next_tile_plus_one(a.partition((TILE,)), b.unpartition()))
            a = a.unpartition()
    for _ in range(replays):
        scope.graph.replay()
    scope.graph.release()
    np.testing.assert_array_equal(a.numpy(), np.full(n, 100.0 * replays, np.float32))


@st.kernel(early_reads=("w",))
def next_tile_plus_w(z: st.Mut[f32, ("T",)], x: st.Ref[f32, (-1,)], w: st.Ref[f32, (-1,)], *, T: int):
    """z's tile i = x's tile i + 1 (the last reads the first) + w's tile i, w's tile read before
    the wait for the launch before (an early read)."""
    i, _, _ = st.tile_block_id()
    early = w.partition((T,)).load((i,))
    px = x.partition((T,))
    z.store(px.load(((i + 1) % px.num_tiles(0),)) + early)


def test_early_reads_see_the_weights_and_wait_for_everything_else() -> None:
    """Like the test above with w's tiles read early: 100 launches a graph, 5 replays, each
    adding w = 1 to a tile another block of the launch before wrote.  Then w itself written by
    the launch right before each early reader: the runtime must launch those ordinarily, or a
    reader would see the w of the step before (the sums would fall short)."""
    n, replays = (4 * TILE, 1) if os.environ.get("SAFETILE_AOT_ARCHS") else (4096 * TILE, 5)
    spec = {"z": st.TensorSpec(dtype=f32, shape=(n,), partition=(TILE,)), "x": st.TensorSpec(dtype=f32, shape=(n,)),
            "w": st.TensorSpec(dtype=f32, shape=(n,))}
    assert next_tile_plus_w.compile_variant(T=TILE, **spec).early_reads == ("w",)
    a, b, w = vec(0.0, n), vec(np.nan, n), st.shared(vec(1.0, n))
    with st.Graph.scope() as scope:
        for _ in range(50):
            b, a, _ = scope.record(next_tile_plus_w(b.partition((TILE,)), a, w))
            a, b, _ = scope.record(next_tile_plus_w(a.partition((TILE,)), b.unpartition(), w))
            a = a.unpartition()
    for _ in range(replays):
        scope.graph.replay()
    scope.graph.release()
    np.testing.assert_array_equal(a.numpy(), np.full(n, 100.0 * replays, np.float32))
    # w written right before each early reader, eagerly: per round u = a + 1, c = a + u, a = c + 1,
    # so a = 2 ** (round + 1) - 2 (every value exact in f32).
    a, u, c = vec(0.0, n), vec(0.0, n), vec(np.nan, n)
    rounds, stream = 10, st.Stream("early reads")
    for _ in range(rounds):
        u, a = next_tile_plus_one(u.partition((TILE,)), a).enqueue(stream)
        c, a, u = next_tile_plus_w(c.partition((TILE,)), a, u.unpartition()).enqueue(stream)
        a, c = next_tile_plus_one(a.partition((TILE,)), c.unpartition()).enqueue(stream)
        a = a.unpartition()
    stream.synchronize()
    np.testing.assert_array_equal(a.numpy(), np.full(n, 2.0 ** (rounds + 1) - 2, np.float32))


def test_prepared_launch_enqueued_many_times() -> None:
    z, x = vec(np.nan).partition((TILE,)), vec(3.0)
    p = axpb(z, x, 2.0, 1.0).prepare()
    stream = st.Stream("prepared")
    for _ in range(100):
        p.enqueue(stream)
    z, x, _, _ = p.release()
    assert p.launches == 100
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(N, 7.0, np.float32))


def test_op_graph_and_lazy_replays() -> None:
    z, x = vec(np.nan).partition((TILE,)), vec(4.0)
    g = axpb(z, x, 0.25, 0.0).graph()
    st.zip(g.launch(), g.launch()).sync()
    z, x, _, _ = g.release()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.ones(N, np.float32))


def test_ownership_errors_leave_data_intact() -> None:
    z, x = vec(np.nan).partition((TILE,)), vec(1.0)
    op = axpb(z, x, 1.0, 0.0)
    with pytest.raises(OwnershipError, match="moved into DeviceOp"):
        z.unpartition()
    with pytest.raises(OwnershipError, match="moved into DeviceOp"):
        x.numpy()
    z, x, _, _ = op.sync()
    with pytest.raises(DeviceOpError, match="already driven"):
        op.sync()
    with pytest.raises(LaunchRefused, match="'z' is st.Mut: pass a Partition"):
        axpb(x, z.unpartition(), 1.0, 0.0)
    g = axpb(vec(np.nan).partition((TILE,)), x, 1.0, 0.0).graph()
    with pytest.raises(OwnershipError, match="moved into DeviceOp"):
        x.numpy()  # x moved into the captured launch; the graph holds the handles it gives back
    _, x, _, _ = g.release()
    with pytest.raises(DeviceOpError, match="allocates memory"):
        with st.Graph.scope() as s:
            s.record(st.zeros((8,)))
    shared = st.shared(vec(2.0))
    pending = axpb(vec(np.nan).partition((TILE,)), shared, 1.0, 0.0)
    with pytest.raises(OwnershipError, match="borrowed by in-flight work"):
        shared.unshare()
    pending.sync()
    shared.unshare()  # released once the launch ran
    two = vec(0.0)
    with pytest.raises(LaunchRefused, match="'z' is st.Mut: pass a Partition"):
        axpb(two, two, 1.0, 0.0)
    np.testing.assert_array_equal(x.numpy(), np.ones(N, np.float32))


def test_streams_order_work_on_the_same_tensor() -> None:
    first, second = st.Stream("first"), st.Stream("second")
    z, x, _, _ = axpb(vec(np.nan).partition((TILE,)), vec(1.0), 1.0, 1.0).then(
        lambda args: axpb(args[0], args[1], 1.0, 1.0)).enqueue(first)
    # Launched on another stream: it must wait for the work on ``first``.
    z, x, _, _ = axpb(z, x, 3.0, 0.0).sync_on(second)
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(N, 3.0, np.float32))
