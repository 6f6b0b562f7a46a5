"""Branches of a recorded graph (``Recorder.branch``, ``runtime/stream.py CaptureOrder``).

Work recorded in a branch runs beside the scope's, and the runtime orders a
launch after the other line's work on the same memory (two reads through a
shared handle excepted).  On the CPU the branch's work runs in program order:
the values must be those of the same ops run one after another.  On the CUDA
backend over the stand-in driver (``fake_cuda``, which builds the captured
graph's nodes and dependencies as the driver does) the graph must have the
fork, the dependencies the rule asks for and no others, end joined, and
keep the branch's kernels at a lower priority than the main line's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.runtime import LaunchCache, OwnershipError
from safetile.runtime.cuda.driver import CudaError
from fake_cuda import (GREATEST_PRIORITY, LEAST_PRIORITY, CUgraphInstantiate_flags, FakeDriver, Node, fake_cuda,
                       reaches)


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


N, TILE = 256, 128


def vector(values: Any) -> st.Tensor:
    return st.from_numpy(np.asarray(values, np.float32)).sync()


def test_a_branch_gives_what_the_same_ops_one_after_another_give() -> None:
    base = np.arange(N, dtype=np.float32)
    w = st.shared(vector(base))
    x, y, s, z = vector(np.ones(N)), st.zeros((N,)).sync(), st.zeros((N,)).sync(), st.zeros((N,)).sync()
    with st.Graph.scope() as scope:
        y, x, _ = scope.record(add(y.partition(TILE), x, w))          # y = 1 + w
        with scope.branch() as branch:
            s, _, _ = branch.record(add(s.partition(TILE), w, w))    # s = 2w, beside the rest
        z, y, _ = scope.record(add(z.partition(TILE), y.unpartition(), w))   # z = y + w
        x, s, _ = scope.record(add(x.partition(TILE), s.unpartition(), z.unpartition()))  # x = s + z
    graph = scope.graph
    assert graph is not None
    graph.sync()
    values = graph.release()
    assert len(values) == 4  # the branch's value among the recorded ones, in record order
    x = x.unpartition()
    np.testing.assert_array_equal(x.numpy(), 2 * base + (1 + base) + base)
    np.testing.assert_array_equal(s.numpy(), 2 * base)


def test_branch_and_record_are_refused_outside_their_blocks() -> None:
    s = st.zeros((N,)).sync()
    w = st.shared(vector(np.ones(N)))
    with st.Graph.scope() as scope:
        with scope.branch() as branch:
            s, _, _ = branch.record(add(s.partition(TILE), w, w))
        with pytest.raises(OwnershipError, match=r"only valid inside its 'with scope.branch\(\)' block"):
            branch.record(add(s.unpartition().partition(TILE), w, w))
    with pytest.raises(OwnershipError, match=r"branch\(\) is only valid inside its 'with Graph.scope\(\)' block"):
        with scope.branch():
            pass


@pytest.fixture
def fake() -> Iterator[FakeDriver]:
    with fake_cuda() as driver:
        add.launch_cache = LaunchCache()  # a kernel loaded by another test's driver is not this one's
        yield driver


def nodes_of(fake: FakeDriver, graph: st.Graph | None) -> list[Node]:
    assert graph is not None
    nodes = list(fake.graphs.values())[-1]  # the latest capture's
    assert graph._recording.nodes == len(nodes)  # type: ignore[union-attr]
    return nodes


def test_a_branch_forks_runs_beside_and_joins_where_its_output_is_used(fake: FakeDriver) -> None:
    w = st.shared(st.ones((N,)).sync())
    x, y, s, z = (st.zeros((N,)).sync() for _ in range(4))
    with st.Graph.scope() as scope:
        y, x, _ = scope.record(add(y.partition(TILE), x, w))                         # 0
        with scope.branch() as branch:
            s, _, _ = branch.record(add(s.partition(TILE), w, w))                    # 1: shared reads only
        z, y, _ = scope.record(add(z.partition(TILE), y.unpartition(), w))           # 2: unrelated
        x, s, _ = scope.record(add(x.partition(TILE), s.unpartition(), w))           # 3: uses the branch's output
    nodes = nodes_of(fake, scope.graph)
    assert nodes[1].stream != nodes[0].stream == nodes[2].stream == nodes[3].stream
    assert reaches(nodes, 0, 1)  # the branch starts after what was recorded before it
    assert not reaches(nodes, 1, 2) and not reaches(nodes, 2, 1)  # beside each other
    assert reaches(nodes, 1, 3)
    # The branch yields to the main line: its kernels at the least priority, kept by the graph.
    assert [n.priority for n in nodes] == [GREATEST_PRIORITY, LEAST_PRIORITY, GREATEST_PRIORITY, GREATEST_PRIORITY]
    assert fake.instantiate_flags[-1] == CUgraphInstantiate_flags.CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY
    scope.graph.replay()  # type: ignore[union-attr]
    scope.graph.release()  # type: ignore[union-attr]


def test_a_branch_waits_for_work_recorded_on_the_scope_after_it_forked(fake: FakeDriver) -> None:
    w = st.shared(st.ones((N,)).sync())
    x, y, s = (st.zeros((N,)).sync() for _ in range(3))
    with st.Graph.scope() as scope:
        with scope.branch() as branch:
            y, x, _ = scope.record(add(y.partition(TILE), x, w))                     # 0: after the fork
            s, y, _ = branch.record(add(s.partition(TILE), y.unpartition(), w))      # 1: reads y
    nodes = nodes_of(fake, scope.graph)
    assert nodes[0].stream != nodes[1].stream
    assert reaches(nodes, 0, 1)
    scope.graph.release()  # type: ignore[union-attr]


def test_a_write_waits_for_shared_reads_on_the_other_line_and_reads_do_not(fake: FakeDriver) -> None:
    w = st.shared(st.ones((N,)).sync())
    x, y, s = (st.zeros((N,)).sync() for _ in range(3))
    with st.Graph.scope() as scope:
        with scope.branch() as branch:
            s, _, _ = branch.record(add(s.partition(TILE), w, w))                    # 0: reads w
        y, x, _ = scope.record(add(y.partition(TILE), x, w))                         # 1: reads w too
        t = w.unshare()  # the launches gave their borrows back when recorded
        t, y, x = scope.record(add(t.partition(TILE), y.unpartition(), x))          # 2: writes w's memory
    nodes = nodes_of(fake, scope.graph)
    assert not reaches(nodes, 0, 1)  # two reads of a shared tensor
    assert reaches(nodes, 0, 2)      # a write after the branch's read
    scope.graph.release()  # type: ignore[union-attr]


def test_an_error_inside_a_branch_ends_the_capture_cleanly(fake: FakeDriver) -> None:
    w = st.shared(st.ones((N,)).sync())
    s = st.zeros((N,)).sync()
    with pytest.raises(ValueError, match="stop here"):
        with st.Graph.scope() as scope:
            with scope.branch() as branch:
                s, _, _ = branch.record(add(s.partition(TILE), w, w))
                raise ValueError("stop here")  # not an unjoined-capture error from the driver
    assert not fake.captures
    s = st.zeros((N,)).sync()
    with st.Graph.scope() as scope:  # the next capture works, a graph without branches
        s, _, _ = scope.record(add(s.partition(TILE), w, w))
    assert len(nodes_of(fake, scope.graph)) == 1
    assert fake.instantiate_flags[-1] == 0  # replayed at the priority of the stream it is replayed on


def test_the_stand_in_refuses_a_capture_whose_fork_is_not_joined(fake: FakeDriver) -> None:
    """What the graphs above are checked against: an unjoined branch fails as on the driver."""
    w = st.shared(st.ones((N,)).sync())
    s = st.zeros((N,)).sync()
    origin, side = st.Stream("origin"), st.Stream("side")
    origin.begin_capture()
    side.wait(origin.record())
    add(s.partition(TILE), w, w).enqueue(side)
    with pytest.raises(CudaError, match="UNJOINED"):
        origin.end_capture()
