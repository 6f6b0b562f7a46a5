"""The launch hot path (``runtime/launch.py``) and the CUDA launcher, on a stand-in driver.

A warm launch checks each handle live and takes it in one pass, finds its
plan and overlap verdict by signature and addresses (``LaunchCache.checked``),
and the CUDA backend writes the tensors' addresses and the scalars into the
plan's own parameter buffer under a lock.  These tests pin what that must
keep: the parameter values of every launch (other tensors, scalars, bf16,
a value too large for its type), prepared launches unaffected by later
ones, concurrent launches of one plan, stream order, the refusals and their
messages, and that a refused or failed launch leaves every handle as it was.
The CUDA backend runs over ``fake_cuda`` (kernels do not run; cubins are real), its launches
through the C call of ``runtime/cuda/_launch.c`` and through cuda-python's route.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import bf16, f32, i32
from safetile.runtime import LaunchCache, LaunchRefused, OwnershipError
from safetile.runtime.cuda.driver import CudaError
from fake_cuda import CU_LAUNCH_KERNEL, CUresult, FakeDriver, fake_cuda

launch_module = sys.modules["safetile.runtime.launch"]  # ``safetile.runtime.launch`` is the function


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel
def affine(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], scale: f32, shift: i32, *, S: st.Shape):
    z.store(st.load_tile_like(x, z) * st.broadcast_scalar(scale, z.shape) + st.broadcast_scalar(float(shift), z.shape))


@st.kernel
def shifted(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], shift: bf16, *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.broadcast_scalar(shift.astype(f32), z.shape))


N, TILE = 256, 128


@pytest.fixture(params=["c", "bindings"])
def fake(request: pytest.FixtureRequest) -> Iterator[FakeDriver]:
    """The stand-in driver, launched through runtime/cuda/_launch.c and through cuda-python's route."""
    with fake_cuda(request.param) as driver:
        for kernel in (add, affine, shifted):  # kernels loaded by another test's driver are not this one's
            kernel.launch_cache = LaunchCache()
        yield driver
        assert (driver.c_launches > 0) == (request.param == "c"), "the route taken"


def tensors(n: int = N) -> tuple[Any, ...]:
    return st.zeros((n,)).sync().partition((TILE,)), st.ones((n,)).sync(), st.ones((n,)).sync()


def record(fake: FakeDriver, kernel: st.Kernel) -> Any:
    """Record ``kernel``'s launches (after one launch made its plan); its loaded ``CudaKernel``."""
    (plan,) = kernel.launch_cache.plans.values()
    loaded = plan.launcher.kernel
    fake.record(loaded.symbol, loaded.layout.codes)
    return loaded


def addresses(*handles: Any) -> list[int]:
    return [h._array.ptr for h in handles]


def test_each_launch_passes_its_own_tensors_addresses_shapes_and_strides(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    sets = [tensors(), tensors()]
    sets[0] = add(*sets[0]).enqueue(stream)
    record(fake, add)
    for k in (0, 1, 0, 0):
        sets[k] = add(*sets[k]).enqueue(stream)
        z, x, y = addresses(*sets[k])
        assert fake.launches[-1].params == (z, N, 1, x, N, 1, y, N, 1)
        assert fake.launches[-1].grid == (2, 1, 1) and fake.launches[-1].stream == stream.address
    assert addresses(*sets[0]) != addresses(*sets[1])


def test_scalars_are_written_per_launch_and_checked(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    z, x, _ = tensors()
    z, x, _, _ = affine(z, x, 2.0, 3).enqueue(stream)
    record(fake, affine)
    for scale, shift in ((0.5, -7), (1.25, 2**31 - 1)):
        z, x, _, _ = affine(z, x, scale, shift).enqueue(stream)
        assert fake.launches[-1].params[-2:] == (scale, shift)
    op = affine(z, x, 1.0, 2**31)  # does not fit the i32 parameter
    with pytest.raises(OverflowError, match=r"a parameter of 'affine_.*' does not fit its type") as info:
        op.enqueue(stream)
    z, x, _, _ = info.value.returned  # the arguments come back on the error
    z, x, _, _ = affine(z, x, 1.0, 4).enqueue(stream)
    assert fake.launches[-1].params[-2:] == (1.0, 4)


def test_a_bf16_scalar_is_rounded_to_nearest_even(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    z, x, _ = tensors()
    z, x, _ = shifted(z, x, 0.0).enqueue(stream)
    record(fake, shifted)
    shifted(z, x, 1.0 + 2**-9).enqueue(stream)  # halfway between two bf16 values: to the even one, 1.0
    assert fake.launches[-1].params[-1] == 0x3F80


def test_a_prepared_launch_keeps_its_parameters_while_the_plan_launches_others(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    mine, others = tensors(), tensors()
    others = add(*others).enqueue(stream)
    record(fake, add)
    prepared = add(*mine).prepare()
    add(*others).enqueue(stream)  # rewrites the plan's buffer
    prepared.enqueue(stream)
    assert fake.launches[-1].params[::3] == tuple(addresses(*mine))
    assert fake.launches[-2].params[::3] == tuple(addresses(*others))
    prepared.release()


def test_threads_launching_one_plan_each_launch_their_own_tensors(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    sets = [tensors() for _ in range(4)]
    sets[0] = add(*sets[0]).enqueue(stream)
    record(fake, add)
    fake.during_launch = lambda: time.sleep(0)  # releases the GIL: the other threads run, and write, if they can
    owners: dict[int, tuple[int, ...]] = {}
    # Every thread alive before any launches: a thread's ident may be reused once it has ended.
    started = threading.Barrier(len(sets))

    def work(args: tuple[Any, ...]) -> None:
        owners[threading.get_ident()] = tuple(addresses(*args))
        started.wait()
        for _ in range(100):
            args = add(*args).enqueue(stream)

    threads = [threading.Thread(target=work, args=(args,)) for args in sets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake.launches) == 400
    assert all(launch.params[::3] == owners[launch.thread] for launch in fake.launches)


def test_a_launch_made_inside_a_launch_of_the_same_plan_uses_another_buffer(fake: FakeDriver) -> None:
    stream = st.current_backend().default_stream
    outer, inner = tensors(), tensors()
    outer = add(*outer).enqueue(stream)
    record(fake, add)
    nested: list[Any] = []

    def launch_inside() -> None:  # as a finalizer running during a launch might
        fake.during_launch = None
        nested.append(add(*inner).enqueue(stream))

    fake.during_launch = launch_inside
    outer = add(*outer).enqueue(stream)
    assert [launch.params[::3] for launch in fake.launches] == [tuple(addresses(*inner)), tuple(addresses(*outer))]


def test_launches_order_after_other_streams_work_and_later_work_after_them(fake: FakeDriver) -> None:
    default = st.current_backend().default_stream
    other = st.Stream("other")
    args = add(*tensors()).enqueue(default)
    record(fake, add)
    args = add(*args).enqueue(other)  # the tensors' last work was on the default stream
    assert [stream for stream, _ in fake.waits] == [other.handle]
    assert {h._array.stream for h in args} == {other}
    add(*args).enqueue(other)
    assert len(fake.waits) == 1  # all on one stream now: nothing to wait for


def test_a_captured_launch_passes_its_tensors_and_orders_nothing_until_released(fake: FakeDriver) -> None:
    default = st.current_backend().default_stream
    args = add(*tensors()).enqueue(default)
    record(fake, add)
    graph = add(*args).graph()
    (captured,) = fake.launches
    assert captured.params[::3] == tuple(addresses(*args)) and captured.stream != default.address
    assert {h._array.stream for h in args} == {default}  # the capture stream orders nothing
    graph.replay()
    assert fake.graph_launches == 1
    args = graph.release()
    assert {h._array.stream for h in args} == {default}


def test_a_refusal_in_the_one_pass_gives_back_what_it_took() -> None:
    z, x, y = tensors()
    z, x, y = add(z, x, y).sync()  # the plan exists: the warm path refuses
    with pytest.raises(LaunchRefused, match=r"'x' is passed twice"):
        add(z, x, x)
    dead = x
    z, x, y = add(z, x, y).sync()
    z, y = st.zeros((N,)).sync().partition((TILE,)), st.ones((N,)).sync()
    with pytest.raises(OwnershipError, match=r"cannot launch 'add' with the tensor passed as 'y': this tensor was "
                                             r"moved into DeviceOp #\d+ 'add\[2, 1, 1\]' \(done\)"):
        add(z, x, dead)
    z, x, y = add(z, x, y).sync()  # every handle the refusals touched is live


def test_the_plans_refusals_come_before_liveness_and_duplicates() -> None:
    z, x, y = tensors(3 * TILE)
    with pytest.raises(LaunchRefused, match=r"'z' is st.Mut: pass a Partition"):
        add(x, x, y)  # a tensor twice, the first where a partition belongs: the kinds are checked first
    op = add(z, x, y)
    with pytest.raises(OwnershipError, match=r"cannot launch with the partition: this partition was moved into "
                                             r"DeviceOp #\d+ 'add\[3, 1, 1\]' \(pending\)"):
        add(z, st.ones((7,)).sync(), st.ones((7,)).sync())  # a new signature: its plan finds z dead
    with pytest.raises(OwnershipError, match=r"cannot launch 'add' with the tensor passed as 'y'"):
        add(st.zeros((3 * TILE,)).sync().partition((TILE,)), st.ones((3 * TILE,)).sync(), x)
    op.sync()


def test_an_error_while_reading_the_arguments_gives_back_what_was_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    z, x, y = tensors(5 * TILE)  # a new signature: its launch keys are computed on this launch

    def failing(arg: Any) -> Any:
        if arg is y:
            raise KeyboardInterrupt
        return real(arg)

    real = launch_module._launch_key
    monkeypatch.setattr(launch_module, "_launch_key", failing)
    with pytest.raises(KeyboardInterrupt):
        add(z, x, y)
    assert z.is_live and x.is_live and y.is_live
    monkeypatch.setattr(launch_module, "_launch_key", real)
    add(z, x, y).sync()


def test_overlaps_are_checked_for_every_new_combination_of_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launch_module, "CHECKED_MEMO", 2)
    host = (np.arange(4 * N, dtype=np.float32))
    z = st.from_numpy(host[:N], copy=False).sync().partition((TILE,))
    inputs = [st.from_numpy(host[k * N:(k + 1) * N], copy=False).sync() for k in (1, 2, 3)]
    y = st.ones((N,)).sync()
    for x in inputs:
        z, x, y = add(z, x, y).sync()
    assert len(add.launch_cache.checked) <= 2  # bounded: cleared when full
    overlapping = st.from_numpy(host[N // 2:N // 2 + N], copy=False).sync()
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(256,\) overlaps the memory of argument 'x'"):
        add(z, overlapping, y)
    add(z, x, y).sync()


def test_a_shared_handle_is_borrowed_not_moved_and_may_be_passed_twice() -> None:
    z = st.zeros((N,)).sync().partition((TILE,))
    x = st.shared(st.full((N,), 2.0).sync())
    op = add(z, x, x)
    with pytest.raises(OwnershipError, match="borrowed by in-flight work"):
        x.unshare()
    z2, x2, x3 = op.sync()
    assert x2 is x and x3 is x
    np.testing.assert_array_equal(z2.unpartition().numpy(), np.full(N, 4.0, np.float32))
    x.unshare()


def test_the_c_launch_call_is_built_and_refuses_what_the_driver_cannot_take() -> None:
    """``make test`` builds runtime/cuda/_launch.c; its arguments are checked before the call."""
    from safetile.runtime.cuda._launch import launch_kernel

    calls: list[tuple[int, ...]] = []
    stub = CU_LAUNCH_KERNEL(lambda *args: calls.append(args) or 0)
    address = ctypes.cast(stub, ctypes.c_void_p).value
    assert launch_kernel(address, 0x10, 3, 2, 1, 0x20, 0x30) == 0
    assert calls == [(0x10, 3, 2, 1, 1, 1, 1, 0, 0x20, 0x30, None)]
    with pytest.raises(OverflowError, match="grid extent does not fit in 32 bits"):
        launch_kernel(address, 0x10, 1 << 32, 1, 1, 0, 0)
    with pytest.raises(OverflowError):
        launch_kernel(address, 0x10, -1, 1, 1, 0, 0)
    with pytest.raises(TypeError, match="takes 7 arguments"):
        launch_kernel(address, 0x10, 1, 1, 1)
    with pytest.raises(ValueError, match="no cuLaunchKernel address"):
        launch_kernel(0, 0x10, 1, 1, 1, 0, 0)
    assert len(calls) == 1


def test_a_failed_launch_is_an_error_naming_the_call_and_gives_back_the_handles(fake: FakeDriver) -> None:
    args = add(*tensors()).enqueue(st.current_backend().default_stream)
    loaded = record(fake, add)
    fake.launch_error = CUresult.CUDA_ERROR_INVALID_VALUE
    # cuLaunchKernelEx where add is compiled as a programmatic dependent (test_dependent_launch_path.py)
    with pytest.raises(CudaError, match=f"{loaded.launch_call} failed: CUDA_ERROR_INVALID_VALUE") as failed:
        add(*args).sync()
    fake.launch_error = CUresult.CUDA_SUCCESS
    z, x, y = add(*failed.value.returned).sync()  # the handles came back on the error
    assert len(fake.launches) == 2 and fake.launches[-1].params[::3] == tuple(addresses(z, x, y))


def test_the_launch_path_benchmark_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """bench/launch_path.py (the Python cost of a launch on the stand-in driver) keeps working: its
    ``main`` runs here (a process of its own would spend more importing than benchmarking); what
    it adds to ``sys.path`` and ``sys.modules`` goes with the test."""
    import importlib.util
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "argv", ["launch_path.py", "--launches", "100"])
    for name in ("gpu", "launch_path"):  # bench/gpu.py is what `from gpu import` finds
        spec = importlib.util.spec_from_file_location(name, bench / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
    assert module.main() == 0
    rows = dict(line.strip("| ").split(" | ") for line in capsys.readouterr().out.splitlines()
                if line.startswith("| ") and not line.startswith("| launch |"))
    assert float(rows["fresh launch `add(z, x, y).enqueue(stream)`"]) > float(rows["stand-in cuLaunchKernelEx alone"])
