"""The concurrency model of docs/runtime.md, under threads, failures and interrupts.

Every test runs on the CPU interpreter and on the stand-in driver (``fake_cuda``:
the CUDA backend's whole host path; kernels do not run there, so data checks are
the CPU's).  Stress tests are bounded (the races 300 rounds in ``make
test-full``, 60 in ``make test``: ``support.examples``) and seeded; the thread switch interval is made tiny so that the
interleavings the old code lost on come up in every run.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile.frontend.dsl import f32
from safetile.runtime import LaunchCache, OwnershipError
from fake_cuda import CUresult, FakeDriver, fake_cuda
from support import examples

launch_module = sys.modules["safetile.runtime.launch"]


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


N, TILE = 256, 128


@pytest.fixture(params=["cpu", "stand-in"])
def backend(request: pytest.FixtureRequest) -> Iterator[FakeDriver | None]:
    """The CPU interpreter (None) or the stand-in driver (its ``FakeDriver``)."""
    add.launch_cache = LaunchCache()  # plans of another backend's loaded kernels are not this one's
    if request.param == "cpu":
        yield None
    else:
        with fake_cuda("bindings") as fake:  # cuda-python's route: the stand-in's calls may raise
            yield fake
    add.launch_cache = LaunchCache()


@pytest.fixture
def tiny_switch_interval() -> Iterator[None]:
    """Switch threads every microsecond: races show up in a few hundred rounds."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def data(seed: int, n: int = N) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32)


def run_threads(count: int, body: Callable[[int], None]) -> None:
    """Run ``body(k)`` in ``count`` threads started together; re-raise the first failure."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def target(k: int) -> None:
        try:
            start.wait()
            body(k)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=target, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if errors:
        raise errors[0]


def race(rounds: int, first: Callable[[], Any], second: Callable[[], Any]) -> list[tuple[Any, Any]]:
    """Run ``first`` and ``second`` at once, ``rounds`` times, in two threads that
    meet at a barrier before each round; each round's two outcomes (a value or the
    exception raised)."""
    barrier = threading.Barrier(2)
    outcomes: list[list[Any]] = [[], []]

    def side(k: int, f: Callable[[], Any]) -> None:
        for _ in range(rounds):
            barrier.wait()
            try:
                outcomes[k].append(f())
            except Exception as err:  # noqa: BLE001 - the outcome under test
                outcomes[k].append(err)
            barrier.wait()  # the round is over before anyone sets up the next one

    threads = [threading.Thread(target=side, args=(0, first)), threading.Thread(target=side, args=(1, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return list(zip(*outcomes))


# -- many threads, shared inputs, separate outputs ------------------------------------------------


def test_eight_threads_launching_on_shared_inputs_give_the_right_data(
        backend: FakeDriver | None, tiny_switch_interval: None) -> None:
    """Even threads launch and read back; odd ones capture each launch into a graph
    and replay it (a capture is the capturing thread's alone)."""
    a, b = data(1), data(2)
    x = st.shared(st.from_numpy(a).sync())
    y = st.shared(st.from_numpy(b).sync())
    results: dict[int, Any] = {}

    def body(k: int) -> None:
        start = data(100 + k)
        z = st.from_numpy(start).sync().partition((TILE,))
        for _ in range(20):
            if k % 2:
                with st.Graph.scope() as s:
                    s.record(add(z, x, y))
                s.graph.sync()
                ((z, _, _),) = s.graph.release()
            else:
                z, _, _ = add(z, x, y).sync()
                tensor = z.unpartition()
                read = tensor.numpy()
                if backend is None:
                    np.testing.assert_array_equal(read, a + b)
                z = tensor.partition((TILE,))
        results[k] = z.unpartition()

    run_threads(8, body)
    assert not x._borrowers and not y._borrowers  # every launch gave its borrow back
    if backend is None:  # the stand-in runs no kernels
        for k in range(8):
            np.testing.assert_array_equal(results[k].numpy(), a + b)
    np.testing.assert_array_equal(x.unshare().numpy(), a)
    np.testing.assert_array_equal(y.unshare().numpy(), b)


# -- exactly one winner ---------------------------------------------------------------------------


def test_unshare_racing_a_launch_has_exactly_one_winner(
        backend: FakeDriver | None, tiny_switch_interval: None) -> None:
    rounds = examples(300)  # make test: 60
    handles: dict[str, Any] = {}

    def new_round() -> None:
        handles["x"] = st.shared(st.from_numpy(data(3)).sync())
        handles["z"] = st.zeros((N,)).sync().partition((TILE,))

    new_round()
    add(handles["z"], handles["x"], handles["x"]).sync()  # the plan exists: launches are warm

    for _ in range(rounds):
        new_round()
        z, x = handles["z"], handles["x"]
        op, back = race(1, lambda: add(z, x, x), x.unshare)[0]
        if not isinstance(op, BaseException):
            op.sync()
        launched, unshared = not isinstance(op, BaseException), not isinstance(back, BaseException)
        assert launched != unshared, f"both or neither won: {op!r}, {back!r}"
        loser = back if launched else op
        assert isinstance(loser, OwnershipError), repr(loser)


def test_two_launches_with_one_output_have_exactly_one_winner(
        backend: FakeDriver | None, tiny_switch_interval: None) -> None:
    x, y = st.from_numpy(data(4)).sync(), st.from_numpy(data(5)).sync()
    x, y = st.shared(x), st.shared(y)
    winners = 0
    rounds = examples(300)  # make test: 60, two signatures
    for round_ in range(rounds):
        # a new signature every 30 rounds: both threads may be planning at once
        z = st.zeros((N + (round_ // 30) * TILE,)).sync().partition((TILE,))
        size = z.tensor_shape[0]
        u, v = st.shared(st.ones((size,)).sync()), st.shared(st.ones((size,)).sync())
        first, second = race(1, lambda: add(z, u, v), lambda: add(z, u, v))[0]
        ops = [o for o in (first, second) if not isinstance(o, BaseException)]
        errors = [o for o in (first, second) if isinstance(o, BaseException)]
        assert len(ops) == 1, f"round {round_}: {first!r}, {second!r}"
        assert isinstance(errors[0], OwnershipError), f"round {round_}: {errors[0]!r}"
        assert "moved into DeviceOp" in str(errors[0])
        ops[0].sync()
        winners += 1
    assert winners == rounds
    del x, y


# -- failures after the arguments moved ----------------------------------------------------------


def fresh_args(seed: int = 7) -> tuple[Any, Any, Any, np.ndarray, np.ndarray, np.ndarray]:
    zd, xd, yd = data(seed), data(seed + 1), data(seed + 2)
    return (st.from_numpy(zd).sync().partition((TILE,)), st.from_numpy(xd).sync(), st.from_numpy(yd).sync(),
            zd, xd, yd)


def assert_back(returned: Any, z0: np.ndarray, x0: np.ndarray, y0: np.ndarray, z_written: bool,
                backend: FakeDriver | None) -> None:
    """Every handle came back live with its data: inputs untouched, the output as the
    kernel left it (written, or as before when it never ran)."""
    z, x, y = returned
    assert z.is_live and x.is_live and y.is_live
    np.testing.assert_array_equal(x.numpy(), x0)
    np.testing.assert_array_equal(y.numpy(), y0)
    expected = x0 + y0 if z_written and backend is None else z0
    np.testing.assert_array_equal(z.unpartition().numpy(), expected)


def test_a_failing_callback_gives_every_handle_back(backend: FakeDriver | None) -> None:
    z, x, y, z0, x0, y0 = fresh_args()

    def boom(value: Any) -> Any:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom") as failed:
        add(z, x, y).then(boom).sync()
    assert_back(failed.value.returned, z0, x0, y0, True, backend)


class Interrupt(KeyboardInterrupt):
    """The interrupt a test raises at one site."""


SITES = [(backend, site) for backend in ("cpu", "stand-in")
         for site in ("callback", "wait", "kernel or driver call", "driver error" if backend == "stand-in" else "kernel error")]
"""Where a launch can fail once its arguments moved (the stand-in runs no kernel, the CPU has no driver)."""


@pytest.mark.parametrize(("backend", "site"), SITES, indirect=["backend"])
def test_an_interrupt_or_error_at_each_site_gives_every_handle_back(
        backend: FakeDriver | None, site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    z, x, y, z0, x0, y0 = fresh_args(11)
    op = add(z, x, y)
    written = site in ("callback", "wait")
    raised: type[BaseException] = Interrupt
    if site == "callback":
        def interrupted(value: Any) -> Any:
            raise Interrupt
        op = op.then(interrupted)
    elif site == "wait":
        stream = st.current_backend().default_stream

        def waiting() -> None:
            raise Interrupt

        monkeypatch.setattr(stream, "synchronize", waiting)
    elif site == "kernel or driver call":
        if backend is None:
            import safetile.runtime.cpu as cpu

            def kernel(*args: Any, **kwargs: Any) -> None:
                raise Interrupt

            monkeypatch.setattr(cpu, "run_kernel", kernel)
        else:
            def driver_call(*args: Any, **kwargs: Any) -> Any:
                raise Interrupt

            monkeypatch.setattr(backend, "_node", driver_call)  # inside cuLaunchKernel(Ex)
    elif site == "driver error":
        assert backend is not None
        backend.launch_error = CUresult.CUDA_ERROR_INVALID_VALUE
        raised = Exception
    else:
        import safetile.runtime.cpu as cpu

        def failing(*args: Any, **kwargs: Any) -> None:
            raise IndexError("a tile index out of range")

        monkeypatch.setattr(cpu, "run_kernel", failing)
        raised = IndexError
    with pytest.raises(raised) as failed:
        op.sync()
    monkeypatch.undo()
    if backend is not None:
        backend.launch_error = CUresult.CUDA_SUCCESS
    assert hasattr(failed.value, "returned"), f"no handles on the {site}'s error"
    assert_back(failed.value.returned, z0, x0, y0, written, backend)


def test_a_relaunch_with_the_returned_handles_runs(backend: FakeDriver | None) -> None:
    z, x, y, _, x0, y0 = fresh_args()

    def boom(value: Any) -> Any:
        raise ValueError("boom")

    with pytest.raises(ValueError) as failed:
        add(z, x, y).then(boom).sync()
    z, x, y = add(*failed.value.returned).sync()
    if backend is None:
        np.testing.assert_array_equal(z.unpartition().numpy(), x0 + y0)


# -- captures are per thread ---------------------------------------------------------------------


def test_a_capture_in_one_thread_leaves_other_threads_alone(backend: FakeDriver | None) -> None:
    z, x, y, *_ = fresh_args()
    opened, done = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def capturing() -> None:
        nonlocal z, x, y
        with st.Graph.scope() as s:
            z, x, y = s.record(add(z, x, y))
            opened.set()
            done.wait(timeout=30)
        seen["graph"] = s.graph

    def other() -> None:
        opened.wait(timeout=30)
        try:
            made = [st.from_numpy(data(20 + k)).sync() for k in range(30)]
            seen["reads"] = [t.numpy() for t in made]
            seen["made"] = made
        finally:
            done.set()

    threads = [threading.Thread(target=capturing), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert "reads" in seen, "the other thread's reads were refused"
    for k, (t, r) in enumerate(zip(seen["made"], seen["reads"])):
        assert t.is_live, f"the graph took tensor {k} another thread allocated"
        np.testing.assert_array_equal(r, data(20 + k))
    graph = seen["graph"]
    assert all(h.is_live is False for h in (z, x, y))  # the graph holds what it recorded
    graph.release()
