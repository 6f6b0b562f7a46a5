"""CUDA torch tensors at the launch boundary, on the CUDA stand-in (``fake_cuda``: no GPU).

A launch of GPU torch tensors runs on torch's current stream of the call (as a
torch op), takes the tensors with no wait (read from their own attributes, no
DLPack exchange: torch's work on them is already before the launch on that
stream), and
tells torch's caching allocator, before the kernel is enqueued, which stream
uses their memory (``record_stream``), so memory torch frees while the launch
is pending is not handed out again before it has run.  Driven on a safetile
stream instead, the launch waits for torch's stream and the allocator is told
of that stream.  Overlapping views of one allocation are refused as safetile
tensors are.  A kernel op's real implementation (``custom_op._call``) on the
same stand-ins, cold and warm, launches on torch's current stream, asks torch
for it once a call and tells the allocator of its inputs before the launch.

The torch tensors here are stand-ins over the fake driver's memory (CPU torch
cannot make CUDA tensors): ``FakeCudaTensor`` has what the edge reads of a
torch tensor (``data_ptr``, ``shape``, ``stride``, ``dtype``, ``device``,
``requires_grad``, ``record_stream``; ``__dlpack__`` logged: the launch never
calls it), and torch's ``current_stream``/``ExternalStream`` are
replaced by stand-ins naming fake stream handles.  test/gpu/test_torch_gpu.py
checks the same on real torch CUDA tensors.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it

import safetile as st  # noqa: E402
from safetile import f32  # noqa: E402
from safetile.runtime import LaunchCache, LaunchRefused, interop  # noqa: E402
from safetile.runtime.torch import KernelLaunch, OutputSpec, custom_op  # noqa: E402
from fake_cuda import FakeDriver, fake_cuda  # noqa: E402


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel(early_reads=("x",))
def axpy(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], a: f32, y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) * st.broadcast_scalar(a, z.shape) + st.load_tile_like(y, z))


N, TILE = 256, 128


@dataclass(frozen=True)
class FakeTorchStream:
    """What the edge reads of a ``torch.cuda.Stream``."""

    cuda_stream: int


class FakeCudaTensor:
    """A GPU torch tensor as the launch edge sees one: ``count`` f32 elements at element ``offset``
    of a safetile GPU tensor's memory, exported through DLPack on device ``(kDLCUDA, 0)``."""

    # The edge tells torch tensors by their type's module (it never imports torch to check).
    __module__ = "torch.fake_cuda"
    requires_grad = False
    is_cuda = True
    dtype = torch.float32
    device = torch.device("cuda", 0)
    layout = torch.strided

    def __init__(self, base: st.Tensor, offset: int, count: int, log: list[Any]):
        self.base, self.offset, self.count, self.log = base, offset, count, log
        self.shape = (count,)

    def data_ptr(self) -> int:
        return self.base._array.ptr + 4 * self.offset

    def stride(self) -> tuple[int, ...]:
        return (1,)

    def is_neg(self) -> bool:
        return False

    def is_conj(self) -> bool:
        return False

    def contiguous(self) -> FakeCudaTensor:
        return self

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        # a kernel op tells its tensor arguments by isinstance(a, torch.Tensor): this passes
        return torch.Tensor

    def __dlpack_device__(self) -> tuple[int, int]:
        return (interop.kDLCUDA, 0)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None) -> object:
        self.log.append(("dlpack", self, stream))
        storage = self.base._array
        return interop._make_capsule(storage, storage.ptr + 4 * self.offset, (self.count,), (1,),
                                     (interop.kDLFloat, 32), (interop.kDLCUDA, 0), (1, 1))

    def record_stream(self, stream: Any) -> None:
        self.log.append(("record_stream", self, stream.cuda_stream))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeDriver, dict[str, Any]]]:
    """The stand-in driver, with torch's current stream a fake one (``torch["current"]``)."""
    with fake_cuda() as driver:
        add.launch_cache = LaunchCache()  # kernels loaded by another test's driver are not this one's
        state: dict[str, Any] = {"current": FakeTorchStream(driver.cuStreamCreate(0)[1]), "log": []}
        monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: state["current"])
        monkeypatch.setattr(torch.cuda, "ExternalStream", lambda handle, device=None: FakeTorchStream(handle))
        yield driver, state


def torch_tensors(log: list[Any]) -> tuple[FakeCudaTensor, FakeCudaTensor, FakeCudaTensor]:
    z, x, y = (st.from_numpy(np.full(N, v, np.float32)).sync() for v in (0, 1, 2))
    return FakeCudaTensor(z, 0, N, log), FakeCudaTensor(x, 0, N, log), FakeCudaTensor(y, 0, N, log)


def record(fake: FakeDriver) -> None:
    (plan,) = add.launch_cache.plans.values()
    fake.record(plan.launcher.kernel.symbol, plan.launcher.kernel.layout.codes)


def test_a_launch_of_gpu_torch_tensors_runs_on_torchs_current_stream(fake: Any) -> None:
    driver, state = fake
    log = state["log"]
    z, x, y = torch_tensors(log)
    add(z, x, y, S=(TILE,)).sync()  # makes the plan
    record(driver)
    torch_handle = state["current"].cuda_stream
    for _ in range(2):
        log.clear()
        back = add(z, x, y, S=(TILE,)).sync()
        assert back == (z, x, y) and back[0] is z  # torch in, torch out
        (launch,) = driver.launches[-1:]
        assert launch.stream == torch_handle  # torch's current stream, not safetile's default
        # no DLPack exchange (it could ask torch to wait): each tensor is read from its attributes,
        # torch's work on it being on that stream already
        assert not [kind for kind, _, _ in log if kind == "dlpack"]
        driver.launches.clear()
    assert not [w for w in driver.waits if int(w[0]) == torch_handle], "no cross-stream wait on torch's stream"


def test_the_allocator_is_told_before_the_kernel_is_enqueued(fake: Any) -> None:
    driver, state = fake
    log = state["log"]
    z, x, y = torch_tensors(log)
    add(z, x, y, S=(TILE,)).sync()
    record(driver)
    log.clear()
    seen_at_launch: list[list[Any]] = []
    driver.during_launch = lambda: seen_at_launch.append(list(log))
    add(z, x, y, S=(TILE,)).sync()
    (before,) = seen_at_launch
    recorded = [(t, s) for kind, t, s in before if kind == "record_stream"]
    # every tensor's memory is kept for the stream the launch runs on, before the launch is enqueued
    assert sorted(map(id, (t for t, _ in recorded))) == sorted(map(id, (z, x, y)))
    assert {s for _, s in recorded} == {state["current"].cuda_stream}


def test_the_stream_is_the_one_current_at_the_call(fake: Any) -> None:
    driver, state = fake
    z, x, y = torch_tensors(state["log"])
    add(z, x, y, S=(TILE,)).sync()
    record(driver)
    at_call = state["current"].cuda_stream
    op = add(z, x, y, S=(TILE,))
    state["current"] = FakeTorchStream(driver.cuStreamCreate(0)[1])  # `with torch.cuda.stream(other):` after the call
    op.sync()
    assert driver.launches[-1].stream == at_call


def test_an_op_composed_from_the_launch_keeps_torchs_stream(fake: Any) -> None:
    driver, state = fake
    z, x, y = torch_tensors(state["log"])
    add(z, x, y, S=(TILE,)).sync()
    record(driver)
    back = add(z, x, y, S=(TILE,)).then(lambda value: value).sync()
    assert back[0] is z
    assert driver.launches[-1].stream == state["current"].cuda_stream


def test_driven_on_a_safetile_stream_it_waits_for_torch_and_tells_the_allocator(fake: Any) -> None:
    driver, state = fake
    log = state["log"]
    z, x, y = torch_tensors(log)
    add(z, x, y, S=(TILE,)).sync()
    record(driver)
    mine = st.Stream("mine")
    log.clear()
    driver.waits.clear()
    add(z, x, y, S=(TILE,)).sync_on(mine)
    assert driver.launches[-1].stream == mine.address  # a stream given keeps that
    assert any(int(stream) == mine.address for stream, _ in driver.waits), "ordered after torch's stream"
    assert {s for kind, _, s in log if kind == "record_stream"} == {mine.address}


def test_overlapping_views_of_one_gpu_allocation_are_refused(fake: Any) -> None:
    driver, state = fake
    log = state["log"]
    base = st.from_numpy(np.arange(2 * N, dtype=np.float32)).sync()
    z = FakeCudaTensor(base, 0, N, log)
    x = FakeCudaTensor(base, N // 2, N, log)  # starts inside z
    y = FakeCudaTensor(base, N, N, log)  # right after z: disjoint
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(256,\) overlaps the memory of argument 'x'"):
        add(z, x, y, S=(TILE,))
    assert not driver.launches and not [e for e in log if e[0] == "record_stream"]
    add(z, y, y, S=(TILE,)).sync()  # disjoint views of the one allocation pass
    assert np.array_equal(base.numpy(), np.arange(2 * N, dtype=np.float32)), "kernels do not run on the stand-in"


def test_a_launch_from_a_thread_with_no_current_context_makes_ours_current(fake: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """torch's autograd runs backward ops in worker threads of its own, where no CUDA context is current
    until torch ran there: the launch makes the device's context current on that thread first (on an
    H100 the first safetile.nn backward failed with CUDA_ERROR_INVALID_CONTEXT before this)."""
    driver, state = fake
    z, x, y = torch_tensors(state["log"])
    add(z, x, y, S=(TILE,)).sync()
    record(driver)
    current: dict[int, Any] = {}
    set_current = driver.cuCtxSetCurrent

    def cu_ctx_set_current(context: Any) -> Any:
        current[threading.get_ident()] = context
        return set_current(context)

    monkeypatch.setattr(driver, "cuCtxSetCurrent", cu_ctx_set_current)
    launched: list[Any] = []
    at_launch: list[Any] = []  # the context current on the launching thread, at each launch
    driver.during_launch = lambda: at_launch.append(current.get(threading.get_ident()))

    def worker() -> None:
        try:
            add(z, x, y, S=(TILE,)).sync()
            launched.append(True)
        except BaseException as err:  # noqa: BLE001 - handed to the test's thread
            launched.append(err)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert launched == [True]
    assert at_launch == [st.current_backend().device.context], "the worker launched with no context current"


def kernel_op_call(outputs: list[FakeCudaTensor], x: FakeCudaTensor, y: FakeCudaTensor,
                   memo: dict[Any, Any], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What a kernel op's real implementation does for ``add(x, y)`` (``custom_op._call``) on the
    stand-in tensors, ``outputs`` taking the place of the outputs torch would allocate."""
    monkeypatch.setattr(custom_op, "_allocate", lambda specs, device: list(outputs))

    def recipe(x: Any, y: Any) -> KernelLaunch:
        return KernelLaunch(add, [OutputSpec((N,), torch.float32, (TILE,))], [x, y], {"S": (TILE,)})

    return custom_op._call("test::add", recipe, (x, y), 1, memo)


def test_a_kernel_op_on_gpu_tensors_asks_torch_for_its_stream_once_a_call(fake: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel op's CUDA path, cold and warm: the launch on torch's current stream, the allocator
    # told of the inputs before the kernel is enqueued, and torch asked for its current stream once a
    # call (``interop.torch_current``: it was twice, ``keep_for_stream`` asking again).
    driver, state = fake
    log = state["log"]
    asked: list[int] = []
    monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: asked.append(1) or state["current"])
    z, x, y = torch_tensors(log)
    memo: dict[Any, Any] = {}
    assert kernel_op_call([z], x, y, memo, monkeypatch) == [z]  # the first call of the signature: launch
    record(driver)
    assert len(memo) == 1 and len(asked) == 1
    seen_at_launch: list[list[Any]] = []
    driver.during_launch = lambda: seen_at_launch.append(list(log))
    for call in range(3):  # the warm path
        log.clear()
        asked.clear()
        assert kernel_op_call([z], x, y, memo, monkeypatch) == [z]
        assert len(asked) == 1
        assert driver.launches[-1].stream == state["current"].cuda_stream
        recorded = [t for kind, t, _ in seen_at_launch[call] if kind == "record_stream"]
        assert sorted(map(id, recorded)) == sorted(map(id, (x, y)))  # the inputs, before the launch
    assert len(memo) == 1 and len(driver.launches) == 3


def test_the_warm_kernel_op_computes_no_device_array_a_call(fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # A warm call's storages are its signature's first device arrays moved to the call's addresses
    # (``DeviceArray.at``): no shapes, strides or spans computed again; the launch gets the new addresses.
    from safetile.runtime.cuda.memory import DeviceArray

    driver, state = fake
    log = state["log"]
    base = st.from_numpy(np.zeros(6 * N, dtype=np.float32)).sync()
    memo: dict[Any, Any] = {}
    kernel_op_call([FakeCudaTensor(base, 0, N, log)], FakeCudaTensor(base, N, N, log),
                   FakeCudaTensor(base, 2 * N, N, log), memo, monkeypatch)
    record(driver)
    made = [0]
    init = DeviceArray.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made[0] += 1
        init(self, *args, **kwargs)

    monkeypatch.setattr(DeviceArray, "__init__", counted)
    z, x, y = (FakeCudaTensor(base, k * N, N, log) for k in (3, 4, 5))  # other addresses, the same signature
    kernel_op_call([z], x, y, memo, monkeypatch)
    assert made[0] == 0 and len(driver.launches) == 1
    assert {z.data_ptr(), x.data_ptr(), y.data_ptr()} <= set(driver.launches[-1].params)


def test_the_warm_kernel_op_refuses_overlapping_gpu_views(fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    driver, state = fake
    log = state["log"]
    base = st.from_numpy(np.arange(2 * N, dtype=np.float32)).sync()
    z, x, y = FakeCudaTensor(base, 0, N, log), FakeCudaTensor(base, N, N, log), FakeCudaTensor(base, N, N, log)
    memo: dict[Any, Any] = {}
    kernel_op_call([z], x, y, memo, monkeypatch)  # disjoint: the signature's plan remembered
    record(driver)
    over = FakeCudaTensor(base, N // 2, N, log)  # the same signature, its memory inside x's
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(256,\) overlaps the memory of argument 'x'"):
        kernel_op_call([over], x, y, memo, monkeypatch)
    assert not driver.launches


def test_the_warm_launch_gets_the_arguments_of_a_cold_one(fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The warm path patches a call's addresses into a parameter buffer packed once
    # (``CudaLauncher.launch_at``, by the tensor of each storage slot): on the same tensors a cold
    # launch (a memo of its own: ``launch`` and every check) gives the driver the same parameters —
    # pointers, the scalar between the tensors, shapes and strides — grid and stream, and records
    # the same writes on the stream.
    driver, state = fake
    axpy.launch_cache = LaunchCache()
    log = state["log"]
    base = st.from_numpy(np.zeros(3 * N, np.float32)).sync()
    z, x, y = (FakeCudaTensor(base, k * N, N, log) for k in (0, 1, 2))
    monkeypatch.setattr(custom_op, "_allocate", lambda specs, device: [z])

    def recipe(x: Any, y: Any) -> KernelLaunch:
        return KernelLaunch(axpy, [OutputSpec((N,), torch.float32, (TILE,))], [x, 2.5, y], {"S": (TILE,)})

    memo: dict[Any, Any] = {}
    custom_op._call("test::axpy", recipe, (x, y), 1, memo)  # the signature's plan remembered
    (plan,) = axpy.launch_cache.plans.values()
    driver.record(plan.launcher.kernel.symbol, plan.launcher.kernel.layout.codes)
    stream = interop.torch_stream([x])
    writes = []
    for each in ({}, memo):  # cold, then warm
        stream.last_writes = None
        custom_op._call("test::axpy", recipe, (x, y), 1, each)
        writes.append(stream.last_writes)
    cold, warm = driver.launches
    assert (warm.params, warm.grid, warm.stream, warm.programmatic) == (cold.params, cold.grid, cold.stream,
                                                                       cold.programmatic)
    assert 2.5 in cold.params and {z.data_ptr(), x.data_ptr(), y.data_ptr()} <= set(cold.params)
    assert writes == [((z.data_ptr(), z.data_ptr() + 4 * N),)] * 2


def test_a_warm_call_reads_torchs_current_stream_by_its_handle(fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where torch has a GPU, a call reads its current stream's raw handle (one C call) and builds
    # torch's Stream object only for a stream no launch ran on yet (``interop.torch_current_on``);
    # the launch and the allocator's record follow the current stream when the caller changes it.
    driver, state = fake
    log = state["log"]
    asked: list[int] = []
    monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: asked.append(1) or state["current"])
    monkeypatch.setattr(interop, "_torch_raw_stream", lambda: lambda ordinal: int(state["current"].cuda_stream))
    z, x, y = torch_tensors(log)
    memo: dict[Any, Any] = {}
    kernel_op_call([z], x, y, memo, monkeypatch)
    record(driver)
    other = FakeTorchStream(driver.cuStreamCreate(0)[1])
    for current, asks in ((state["current"], (0, 0)), (other, (1, 0))):  # torch's Stream built once a stream
        state["current"] = current
        for expected in asks:
            asked.clear()
            log.clear()
            kernel_op_call([z], x, y, memo, monkeypatch)
            assert driver.launches[-1].stream == current.cuda_stream
            assert [s for kind, _, s in log if kind == "record_stream"] == [current.cuda_stream] * 2
            assert len(asked) == expected
