"""bench/method.py on the stand-in driver: the order is shuffled afresh each round, each implementation
is warmed on itself right before each of its timings, the L2 flush lands outside the timing events,
the peer is timed alone as a control, and the steady state runs each implementation back to back.

The implementations are prepared launches of one small kernel on distinct tensors (told apart by
the addresses the stand-in records); a timeline logs, in enqueue order, each launch by name, each
timing event (``|``) and each flush (``F``), and is checked against ``fake.launches``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import safetile as st
from safetile import f32
from safetile.runtime import LaunchCache
from fake_cuda import FakeDriver, fake_cuda

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from method import Measured, Method  # noqa: E402

NAMES = ("ours", "other", "peer")


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


class LoggedStream:
    """The backend stream, logging each timing event it records into ``timeline``."""

    def __init__(self, stream: Any, timeline: list[str]):
        self.stream, self.timeline = stream, timeline

    def record(self, timing: bool = False) -> Any:
        self.timeline.append("|")
        return self.stream.record(timing=timing)

    def synchronize(self) -> None:
        self.stream.synchronize()


@pytest.fixture
def fake() -> Iterator[FakeDriver]:
    with fake_cuda() as stand_in:
        add.launch_cache = LaunchCache()  # kernels loaded by another test's driver are not this one's
        yield stand_in


def setup(fake: FakeDriver) -> tuple[dict[str, Any], LoggedStream, list[str]]:
    """Three implementations, the logged stream and the timeline."""
    stream = st.current_backend().default_stream
    timeline: list[str] = []
    impls = {}
    for name in NAMES:
        z = st.zeros((256,)).sync().partition((128,))
        prepared = add(z, st.ones((256,)).sync(), st.ones((256,)).sync()).prepare()
        kernel = next(iter(add.launch_cache.plans.values())).launcher.kernel
        fake.record(kernel.symbol, kernel.layout.codes)

        def launch(prepared: Any = prepared, name: str = name) -> None:
            timeline.append(name)
            prepared.enqueue(stream)

        impls[name] = launch
    return impls, LoggedStream(stream, timeline), timeline


def blocks(timeline: list[str]) -> list[list[str]]:
    """The timeline cut after each closing event: one block per timing."""
    out, current, events = [], [], 0
    for item in timeline:
        current.append(item)
        if item == "|":
            events += 1
            if events % 2 == 0:
                out.append(current)
                current = []
    return out


def test_each_round_times_every_implementation_in_a_fresh_order_each_warmed_on_itself(fake: FakeDriver) -> None:
    impls, stream, timeline = setup(fake)
    method = Method(rounds=6, warm=3, reps=2, seed=7)
    measured = method.compare(impls, peer="peer", stream=stream)
    timed = blocks(timeline)
    burst, control = timed[:6 * len(NAMES)], timed[6 * len(NAMES):]
    # every burst timing: 3 launches of one implementation (its warm-up), the start event, 2 timed
    # launches of the same implementation, the end event
    order = []
    for block in burst:
        name = block[0]
        assert block == [name] * 3 + ["|"] + [name] * 2 + ["|"], block
        order.append(name)
    rounds = [order[i:i + len(NAMES)] for i in range(0, len(order), len(NAMES))]
    assert rounds == measured.orders
    assert all(sorted(r) == sorted(NAMES) for r in rounds), "every implementation once a round"
    assert len({tuple(r) for r in rounds}) > 2, "the order changes from round to round"
    predecessors = {(r[i - 1], r[i]) for r in rounds for i in range(1, len(r))}
    assert len(predecessors) > len(NAMES), "not a fixed rotation: an implementation follows several others"
    # the peer alone: as many rounds, nothing else between them
    assert control == [["peer"] * 3 + ["|"] + ["peer"] * 2 + ["|"]] * 6
    assert len(measured.control) == 6 and all(len(v) == 6 for v in measured.burst.values())
    # what the stand-in driver was given is what the timeline says, launch for launch
    launched = [item for item in timeline if item != "|"]
    assert len(fake.launches) == len(launched)
    by_address: dict[int, str] = {}
    for name, launch in zip(launched, fake.launches):
        assert by_address.setdefault(launch.params[0], name) == name, "one set of tensors per implementation"
    assert len(by_address) == len(NAMES)


def test_two_seeds_give_two_orders_and_one_seed_the_same(fake: FakeDriver) -> None:
    impls, stream, _ = setup(fake)
    orders = [Method(rounds=5, warm=0, reps=1, seed=s).compare(impls, "peer", stream).orders for s in (1, 2, 1)]
    assert orders[0] == orders[2] and orders[0] != orders[1]


def test_the_spin_and_the_flush_come_before_each_timed_launch_outside_the_events(fake: FakeDriver) -> None:
    impls, stream, timeline = setup(fake)
    Method(rounds=2, warm=2, reps=3, flush_l2=True).compare(impls, "peer", stream,
                                                          flush=lambda: timeline.append("F"),
                                                          spin=lambda: timeline.append("S"))
    timed = blocks(timeline)
    assert len(timed) == 2 * len(NAMES) * 3 + 2 * 3, "a timing per launch: burst rounds, then the control"
    for block in timed:
        name = block[-2]
        assert block in ([name] * 2 + ["S", "F", "|", name, "|"], ["F", "|", name, "|"]), block
        assert name in NAMES


def test_the_steady_state_runs_each_implementation_back_to_back_for_its_time(fake: FakeDriver) -> None:
    impls, stream, timeline = setup(fake)
    measured = Method(rounds=1, warm=4, reps=2, steady_s=0.05, seed=3).compare(impls, "peer", stream)
    steady_order = measured.orders[-1]
    assert sorted(steady_order) == sorted(NAMES)
    launched = [item for item in timeline if item != "|"][len(NAMES) * (4 + 2):]  # after the one burst round
    runs = [launched[0]]
    for item in launched[1:]:
        if item != runs[-1]:
            runs.append(item)
    assert runs == steady_order, "each implementation's steady launches come together"
    for name in NAMES:
        assert launched.count(name) >= 4 + 4 * 2, "the warm-up and at least four batches"
        assert measured.steady[name], "the second half's batches"


def test_the_summary_gives_both_regimes_and_the_control() -> None:
    measured = Measured(peer="peer", burst={"ours": [1.0, 2.0, 4.0], "peer": [2.0, 2.0, 2.0]},
                        steady={"ours": [3.0, 3.0], "peer": [2.4, 2.4]}, control=[1.5, 1.5, 1.6], orders=[])
    ours = measured.summary("ours")
    assert ours["burst_s"] == 2.0 and ours["burst_ratio"] == 1.0  # ratios 2, 1, 0.5 per round
    assert ours["steady_ratio"] == pytest.approx(0.8)
    assert measured.summary("peer")["control_burst_s"] == 1.5


def test_a_peer_not_among_the_implementations_is_refused() -> None:
    with pytest.raises(ValueError, match="the peer 'cuBLAS' is not among the implementations"):
        Method().compare({"ours": lambda: None}, peer="cuBLAS", stream=None)
