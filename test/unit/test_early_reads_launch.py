"""Early reads: when a kernel that reads its weights before its wait may start early.

A variant with ``CompiledVariant.early_reads`` reads those tensors before its
grid-dependency wait, so the CUDA backend launches it as a programmatic
dependent (``cuLaunchKernelEx``) only where the work just before it on the
stream is one of our kernel launches writing none of their memory, and by
``cuLaunchKernel`` everywhere else (``runtime/cuda/stream.py`` states the rule
and why it is safe).  These tests pin the kind of every launch on the stand-in
driver, through the real launch path (plan, launcher, prepared launches,
captures): after a launch writing other memory, after one writing the weights
or memory overlapping them, after each kind of other work, on error, and with
threads.  The variants are the compiler's (``@st.kernel(early_reads=...)``);
the fixture checks that they read early what the tests assume.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.runtime import LaunchCache
from safetile.runtime.cuda.driver import CudaError
from safetile.runtime.cuda.memory import DeviceArray
from safetile.runtime.tensor import Tensor
from fake_cuda import CUresult, FakeDriver, fake_cuda

launch_module = sys.modules["safetile.runtime.launch"]  # ``safetile.runtime.launch`` is the function


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel(early_reads=("w",))
def scale(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], w: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) * st.load_tile_like(w, z))


@st.kernel(early_reads=("x",))
def mixed(z: st.MutMapped[f32, (16,)], x: st.Ref[f32, (-1,)], step: f32, p: st.Ptr[f32]):
    offs = st.iota((16,))
    with st.unsafe():
        ptrs = st.offset(p, offs)
        st.store_ptr(ptrs, st.load_ptr(ptrs) + step)
    t = x.partition((16,)).load((0,))
    for idx in z.tile_indices():
        z.store(t, idx)


plain_scale = scale.with_options(dependent_launch=False)
"""``scale`` compiled without ``grid-dependency``: no wait, so no early reads either."""

N, TILE = 256, 128
KERNELS = (add, scale, plain_scale, mixed)


@pytest.fixture(params=["c", "bindings"])
def fake(request: pytest.FixtureRequest) -> Iterator[FakeDriver]:
    """The stand-in driver (both launch routes), each kernel's plan made and its launches recorded."""
    with fake_cuda(request.param) as stand_in:
        for kernel in KERNELS:  # kernels loaded by another test's driver are not this one's
            kernel.launch_cache = LaunchCache()
        for kernel in (add, scale, plain_scale):
            kernel(*tensors()).sync()
        mixed(*mixed_args(), grid=(1,)).sync()
        for kernel, reads in ((add, ()), (scale, ("w",)), (plain_scale, ()), (mixed, ("x",))):
            (plan,) = kernel.launch_cache.plans.values()
            loaded = plan.launcher.kernel
            assert (loaded.plain is not None) == bool(reads), f"the compiler made {kernel.name} read {reads} early"
            stand_in.record(loaded.symbol, loaded.layout.codes)
        yield stand_in


def tensors(n: int = N) -> tuple[Any, ...]:
    """An output partition and two inputs, made (and synchronised) on the default stream."""
    return st.zeros((n,)).sync().partition((TILE,)), st.ones((n,)).sync(), st.ones((n,)).sync()


def mixed_args(pointed: int = 16) -> tuple[Any, ...]:
    """Arguments of ``mixed``: a 2-tile output, an input, a scalar, a pointer to ``pointed`` elements."""
    return (st.zeros((32,)).sync().partition((16,)), st.ones((16,)).sync(), 1.0,
            st.unsafe_pointer(st.zeros((pointed,)).sync()))


def kinds(fake: FakeDriver, since: int = 0) -> list[tuple[str, bool]]:
    """(kernel, programmatic) of each launch recorded since launch number ``since`` (the kernel by
    name: symbols add the generics, ``scale_128``)."""
    return [(launch.symbol.split("_")[0], launch.programmatic) for launch in fake.launches[since:]]


def node_kinds(fake: FakeDriver) -> list[tuple[str, bool]]:
    """(kernel, programmatic) of each kernel node of the graph captured last."""
    return [(node.symbol.split("_")[0], node.programmatic) for node in list(fake.graphs.values())[-1]]


ADD, SCALE = "add", "scale"


@pytest.fixture
def stream(fake: FakeDriver) -> Any:
    return st.current_backend().default_stream


def view(tensor: Tensor, start: int, count: int) -> Tensor:
    """A second handle on ``count`` elements of ``tensor``'s memory from element ``start``: memory
    reached twice, as imports of one torch tensor (or views of it) are, which the ownership checks
    cannot see."""
    storage = tensor.storage()
    return Tensor(DeviceArray(storage.ptr + 4 * start, (count,), (4,), storage.dtype, storage.stream), f32)


# -- the rule, eagerly -------------------------------------------------------------------------


def test_a_kernel_reading_early_starts_early_after_a_launch_writing_other_memory(fake: FakeDriver,
                                                                                 stream: Any) -> None:
    a, b = tensors(), tensors()
    start = len(fake.launches)
    a = add(*a).enqueue(stream)
    b = scale(*b).enqueue(stream)  # add wrote a's z only
    b = scale(*b).enqueue(stream)  # scale wrote b's z only
    a = add(*a).enqueue(stream)
    b = scale(*b).enqueue(stream)
    assert kinds(fake, start) == [(ADD, True), (SCALE, True), (SCALE, True), (ADD, True), (SCALE, True)]
    assert stream.last_writes == (b[0].unpartition().storage().span,)


def test_after_a_launch_writing_its_weights_it_is_an_ordinary_launch(fake: FakeDriver, stream: Any) -> None:
    z, x, _ = tensors()
    weights, a, b = tensors()
    start = len(fake.launches)
    weights, a, b = add(weights, a, b).enqueue(stream)  # writes the weights
    z, x, w = scale(z, x, weights.unpartition()).enqueue(stream)
    z, x, w = scale(z, x, w).enqueue(stream)  # after scale, which wrote z only
    assert kinds(fake, start) == [(ADD, True), (SCALE, False), (SCALE, True)]


@pytest.mark.parametrize(("offset", "early"), [
    (0, False),           # the same memory again
    (N // 2, False),      # its second half and beyond
    (N - 1, False),       # its last element and beyond
    (1 - N, False),       # up to its first element
    (N, True),            # the memory right after it: ranges are half-open
    (-N, True),           # the memory right before it
], ids=["same", "half", "last-element", "first-element", "after", "before"])
def test_memory_overlapping_the_weights_counts_however_it_is_reached(fake: FakeDriver, stream: Any, offset: int,
                                                                     early: bool) -> None:
    """``add`` writes N elements at ``offset`` from the weights, through another handle on one
    allocation (as imports of one torch tensor, or views of it, are): the rule compares addresses,
    not handles."""
    block = st.zeros((3 * N,)).sync()
    weights = view(block, N, N)
    out = view(block, N + offset, N).partition((TILE,))
    _, x, y = tensors()
    z, x2, _ = tensors()
    first = len(fake.launches)
    add(out, x, y).enqueue(stream)
    scale(z, x2, weights).enqueue(stream)
    assert kinds(fake, first) == [(ADD, True), (SCALE, early)]


def test_a_dlpack_alias_of_the_weights_is_the_same_memory(fake: FakeDriver, stream: Any) -> None:
    z, x, w = tensors()
    _, a, b = tensors()
    alias = st.from_dlpack(w.__dlpack__())  # a second handle on w's memory, made on purpose
    first = len(fake.launches)
    add(alias.partition((TILE,)), a, b).enqueue(stream)
    scale(z, x, w).enqueue(stream)
    assert kinds(fake, first) == [(ADD, True), (SCALE, False)]


def test_the_launch_reads_early_only_what_the_compiler_named(fake: FakeDriver, stream: Any) -> None:
    """``add`` writing scale's ``x`` (read after the wait) lets it start early; writing ``w`` does not."""
    z, x, w = tensors()
    _, a, b = tensors()
    first = len(fake.launches)
    x_out, a, b = add(x.partition((TILE,)), a, b).enqueue(stream)
    z, x, w = scale(z, x_out.unpartition(), w).enqueue(stream)
    assert kinds(fake, first) == [(ADD, True), (SCALE, True)]


# -- any other work just before: an ordinary launch ---------------------------------------------


def _upload(stream: Any, spare: dict[str, Any]) -> None:
    spare["kept"] = st.from_numpy(np.ones(8, np.float32)).enqueue(stream)  # cuMemAllocAsync, cuMemcpyHtoDAsync


def _memset(stream: Any, spare: dict[str, Any]) -> None:
    spare["kept"] = st.zeros((8,)).enqueue(stream)  # cuMemsetD32Async


def _fill_by_copy(stream: Any, spare: dict[str, Any]) -> None:
    spare["kept"] = st.full((8,), 2.0, st.f64).enqueue(stream)  # 8-byte elements: an upload


def _host_read(stream: Any, spare: dict[str, Any]) -> None:
    spare["tensor"].numpy()  # cuMemcpyDtoHAsync on the tensor's stream, and a wait


def _device_copy(stream: Any, spare: dict[str, Any]) -> None:
    backend = st.current_backend()
    storage = spare["tensor"].storage()
    backend.restore(storage, backend.snapshot(storage))  # cuMemcpyDtoDAsync twice


def _free(stream: Any, spare: dict[str, Any]) -> None:
    del spare["tensor"]  # its memory goes back to the pool: cuMemFreeAsync


def _event_record(stream: Any, spare: dict[str, Any]) -> None:
    spare["event"] = stream.record()


def _event_wait(stream: Any, spare: dict[str, Any]) -> None:
    stream.wait(st.Stream("other").record())


def _synchronize(stream: Any, spare: dict[str, Any]) -> None:
    stream.synchronize()


def _graph_replay(stream: Any, spare: dict[str, Any]) -> None:
    spare["graph"].replay(stream)


def _import_with_stream(stream: Any, spare: dict[str, Any]) -> None:
    storage = spare["tensor"].storage()

    class Producer:  # CUDA Array Interface v3 with its producer's stream: ours waits for it
        __cuda_array_interface__ = {"shape": storage.shape, "typestr": "<f4", "data": (storage.ptr, False),
                                    "version": 3, "strides": None, "stream": 0x77}

    spare["kept"] = st.from_dlpack(Producer())


def _export_to_a_consumer_stream(stream: Any, spare: dict[str, Any]) -> None:
    spare["tensor"].__dlpack__(stream=0x99)  # the consumer's stream waits for an event on ours


def _handle_given_out(stream: Any, spare: dict[str, Any]) -> None:
    int(stream.handle)  # whoever reads it may enqueue anything


OTHER_WORK: dict[str, Callable[[Any, dict[str, Any]], None]] = {
    "upload": _upload, "memset": _memset, "fill by copy": _fill_by_copy, "host read": _host_read,
    "device copy": _device_copy, "free": _free, "event record": _event_record, "event wait": _event_wait,
    "synchronize": _synchronize, "graph replay": _graph_replay, "import with a stream": _import_with_stream,
    "export to a consumer stream": _export_to_a_consumer_stream, "handle given out": _handle_given_out,
}


@pytest.mark.parametrize("work", [None, *OTHER_WORK], ids=lambda w: w or "nothing")
def test_after_any_other_work_it_is_an_ordinary_launch(fake: FakeDriver, stream: Any, work: str | None) -> None:
    """``add`` (writing other memory), the other work, then ``scale``: an ordinary launch, and the
    launch after it (after ``scale``) an early one.  With nothing between, ``scale`` starts early."""
    graph = add(*tensors()).graph()
    spare = {"tensor": st.ones((N,)).sync(), "graph": graph}
    a, b = tensors(), tensors()
    first = len(fake.launches)
    add(*a).enqueue(stream)
    if work is not None:
        OTHER_WORK[work](stream, spare)
    b = scale(*b).enqueue(stream)
    scale(*b).enqueue(stream)
    assert kinds(fake, first) == [(ADD, True), (SCALE, work is None), (SCALE, True)]
    graph.release()


def test_the_first_launch_on_a_stream_is_an_ordinary_launch(fake: FakeDriver) -> None:
    stream = st.Stream("new")
    assert stream.last_writes is None
    first = len(fake.launches)
    b = scale(*tensors()).enqueue(stream)  # also waits for the default stream, where the tensors were made
    scale(*b).enqueue(stream)
    assert kinds(fake, first) == [(SCALE, False), (SCALE, True)]


def test_a_launch_waiting_for_another_streams_work_is_an_ordinary_launch(fake: FakeDriver, stream: Any) -> None:
    """The weights' last work was on another stream: the launch waits for it (``cuStreamWaitEvent``)
    just before, and that wait is the work before it."""
    other = st.Stream("other")
    z, x, w = tensors()
    z2, x2, _ = tensors()
    b = tensors()
    z, x, w = scale(z, x, w).enqueue(other)  # the weights move to the other stream
    add(*b).enqueue(stream)
    first = len(fake.launches)
    scale(z2, x2, w).enqueue(stream)  # after add, which wrote b's z only: but first the wait
    assert kinds(fake, first) == [(SCALE, False)]
    assert fake.waits[-1][0] == stream.address


# -- kernels without early reads, unchanged ----------------------------------------------------


def test_a_kernel_without_early_reads_launches_as_it_always_did(fake: FakeDriver, stream: Any) -> None:
    """``add`` is programmatic after anything, ``plain_scale`` ordinary after anything, and neither
    holds a second launch."""
    for kernel in (add, plain_scale):
        (plan,) = kernel.launch_cache.plans.values()
        assert plan.launcher.kernel.plain is None
    a, b = tensors(), tensors()
    new = st.Stream("new")
    first = len(fake.launches)
    a = add(*a).enqueue(stream)  # after allocations
    a = add(*a).enqueue(stream)
    a = add(*a).enqueue(new)  # after a wait, first on its stream
    b = plain_scale(*b).enqueue(stream)
    plain_scale(*b).enqueue(stream)
    assert kinds(fake, first) == [(ADD, True)] * 3 + [(SCALE, False)] * 2


def test_before_sm_90_a_kernel_with_early_reads_is_always_an_ordinary_launch(
        fake: FakeDriver, stream: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(st.current_backend(), "target", "sm_80")
    scale.launch_cache = LaunchCache()
    z, x, w = scale(*tensors()).sync()
    (plan,) = scale.launch_cache.plans.values()
    assert not plan.launcher.kernel.programmatic and plan.launcher.kernel.plain is None
    fake.record(plan.launcher.kernel.symbol, plan.launcher.kernel.layout.codes)
    first = len(fake.launches)
    b = scale(z, x, w).enqueue(stream)
    scale(*b).enqueue(stream)
    assert kinds(fake, first) == [(SCALE, False)] * 2


# -- the plan's template ------------------------------------------------------------------------


def test_the_plan_names_the_storages_written_and_read_early(fake: FakeDriver) -> None:
    """Indices into the storage order ``z`` (st.MutMapped), ``x`` (st.Ref), ``p`` (st.Ptr: written,
    wherever it points), not argument positions (``step`` is argument 2); ``mixed`` reads ``x`` early."""
    (plan,) = mixed.launch_cache.plans.values()  # made by the fixture
    template = plan.launcher.template
    assert [i for _, i in template.storage_slots] == [0, 1, 3]
    assert (template.written, template.read_early) == ((0, 2), (1,))
    (plan,) = scale.launch_cache.plans.values()
    assert (plan.launcher.template.written, plan.launcher.template.read_early) == ((0,), (2,))


@st.kernel
def scaled(z: st.Mut[f32, (16,)], s: f32, x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z) * st.broadcast_scalar(s, z.shape))


def test_a_tensor_after_a_scalar_parameter_is_passed_its_memory() -> None:
    """``storage_slots`` hold argument positions (here 0 and 2), as ``written`` and ``read_early``
    are read through them (on the CPU interpreter: the same plan)."""
    z, s, x = scaled(st.zeros((16,)).sync().partition((16,)), 2.0, st.from_numpy(np.arange(16.0), st.f32).sync()).sync()
    assert (z.unpartition().numpy() == 2 * np.arange(16.0)).all()


def test_a_pointer_parameter_counts_as_written(fake: FakeDriver, stream: Any) -> None:
    """A launch writing through a raw pointer into the weights: ``scale`` after it is ordinary."""
    z, x, step, weights = mixed_args(N)
    z2, x2, unused = tensors()  # kept: dropping a tensor frees its memory, and a free is other work
    first = len(fake.launches)
    z, x, step, weights = mixed(z, x, step, weights, grid=(1,)).enqueue(stream)  # after a sync: ordinary
    z, x, step, weights = mixed(z, x, step, weights, grid=(1,)).enqueue(stream)  # after itself: z and p written
    scale(z2, x2, weights.release()).enqueue(stream)  # after mixed, which wrote through p
    assert kinds(fake, first) == [("mixed", False), ("mixed", True), (SCALE, False)]


def test_a_variant_naming_no_tensor_parameter_is_refused(fake: FakeDriver, monkeypatch: pytest.MonkeyPatch) -> None:
    """Launching as if it read nothing early could start it under a kernel still writing what it
    reads: a variant (the compiler's bug, made here) naming what is no tensor parameter is an error."""
    compile_variant = launch_module.compile_variant

    def naming_a_generic(kernel: Any, variant: Any, target: Any, options: Any) -> Any:
        return dataclasses.replace(compile_variant(kernel, variant, target, options), early_reads=("w", "S"))

    monkeypatch.setattr(launch_module, "compile_variant", naming_a_generic)
    scale.launch_cache = LaunchCache()
    args = tensors()
    with pytest.raises(RuntimeError, match=r"'scale' was compiled to read \['S'\] before its grid-dependency "
                                           r"wait, but its tensor parameters are \['z', 'x', 'w'\]"):
        scale(*args)
    assert all(h.is_live for h in args)  # refused before anything moved


# -- captures and prepared launches -------------------------------------------------------------


def test_in_a_capture_each_node_is_programmatic_by_the_same_rule(fake: FakeDriver) -> None:
    z, x, w = tensors()
    z2, x2, _ = tensors()
    a, b = tensors(), tensors()
    with st.Graph.scope() as scope:
        z, x, w = scope.record(scale(z, x, w))  # the first node: nothing before it in the graph
        a = scope.record(add(*a))
        z, x, w = scope.record(scale(z, x, w))  # after add, which wrote a's z
        weights, *_ = scope.record(add(*b))
        scope.record(scale(z2, x2, weights.unpartition()))  # after add, which wrote its weights
    assert node_kinds(fake) == [(SCALE, False), (ADD, True), (SCALE, True), (ADD, True), (SCALE, False)]
    scope.graph.replay()  # type: ignore[union-attr]
    scope.graph.release()  # type: ignore[union-attr]


def test_a_captured_op_starts_as_an_ordinary_node(fake: FakeDriver, stream: Any) -> None:
    a, b = tensors(), tensors()
    add(*a).enqueue(stream)
    graph = scale(*b).graph()
    assert node_kinds(fake) == [(SCALE, False)]
    graph.release()


def test_a_prepared_launch_chooses_at_each_enqueue(fake: FakeDriver, stream: Any) -> None:
    z, x, w = tensors()
    alias = view(w, 0, N)  # the prepared launch holds w: only another handle on its memory can write it
    prepared = scale(z, x, w).prepare()
    a = tensors()
    _, b, c = tensors()
    spare: dict[str, Any] = {}
    first = len(fake.launches)
    prepared.enqueue(stream)  # after allocations (tensors() syncs)
    prepared.enqueue(stream)  # after itself
    add(*a).enqueue(stream)
    prepared.enqueue(stream)  # after add writing other memory
    add(alias.partition((TILE,)), b, c).enqueue(stream)
    prepared.enqueue(stream)  # after add writing the weights
    _memset(stream, spare)  # its tensor kept: a free would be other work too
    prepared.enqueue(stream)
    assert kinds(fake, first) == [(SCALE, False), (SCALE, True), (ADD, True), (SCALE, True), (ADD, True),
                                  (SCALE, False), (SCALE, False)]
    prepared.release()


def test_a_prepared_launch_records_what_it_writes(fake: FakeDriver, stream: Any) -> None:
    z, x, w = tensors()
    out = z.unpartition()
    written = out.storage().span
    prepared = add(out.partition((TILE,)), x, w).prepare()
    prepared.enqueue(stream)
    assert stream.last_writes == (written,)
    prepared.release()


# -- errors and threads -------------------------------------------------------------------------


@pytest.mark.parametrize("prepared", [False, True], ids=["eager", "prepared"])
def test_a_failed_launch_leaves_the_last_work_unknown_and_names_the_call_made(fake: FakeDriver, stream: Any,
                                                                             prepared: bool) -> None:
    held: list[Any] = []

    def launch(kernel: st.Kernel, args: tuple[Any, ...]) -> None:
        if prepared:
            held.append(kernel(*args).prepare())  # released at the end: a release waits for the stream
            held[-1].enqueue(stream)
        else:
            kernel(*args).enqueue(stream)

    sets = [tensors() for _ in range(5)]
    launch(add, sets[0])
    assert stream.last_writes is not None
    fake.launch_error = CUresult.CUDA_ERROR_INVALID_VALUE
    with pytest.raises(CudaError, match="^cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE") as failed:
        launch(scale, sets[1])  # after add: the programmatic launch
    assert failed.value.call == "cuLaunchKernelEx" and stream.last_writes is None
    with pytest.raises(CudaError, match="^cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE") as failed:
        launch(scale, sets[2])  # after the failure: the ordinary one
    assert failed.value.call == "cuLaunchKernel" and stream.last_writes is None
    with pytest.raises(CudaError, match="^cuLaunchKernelEx failed"):
        launch(add, sets[3])
    assert stream.last_writes is None
    fake.launch_error = CUresult.CUDA_SUCCESS
    first = len(fake.launches)
    launch(scale, sets[4])  # after a failed add
    assert kinds(fake, first) == [(SCALE, False)]
    for p in held:
        p.release()


def test_threads_launching_on_one_stream_record_what_the_launch_before_wrote(fake: FakeDriver, stream: Any) -> None:
    """One thread writes (through a second handle) the weights two others' launches read early: in
    the driver's order, each early start follows a launch that did not write them."""
    block = st.zeros((N,)).sync()
    weights_at = block.storage().ptr
    writes = (view(block, 0, N).partition((TILE,)), *tensors()[1:])
    reads = [(*tensors()[:2], view(block, 0, N)) for _ in range(2)]
    fake.during_launch = lambda: time.sleep(0)  # releases the GIL inside the driver call: the threads interleave

    def work(kernel: st.Kernel, args: tuple[Any, ...]) -> None:
        for _ in range(100):
            args = kernel(*args).enqueue(stream)

    first = len(fake.launches)
    threads = [threading.Thread(target=work, args=(add, writes))]
    threads += [threading.Thread(target=work, args=(scale, args)) for args in reads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    fake.during_launch = None
    launches = fake.launches[first:]
    assert len(launches) == 300
    wrote_weights = [launch.symbol.startswith(ADD) and launch.params[0] == weights_at for launch in launches]
    reads = [(launch.programmatic, wrote) for launch, wrote in zip(launches[1:], wrote_weights)
             if launch.symbol.startswith(SCALE)]  # (started early, right after a write of the weights)
    assert (True, True) not in reads
    assert (True, False) in reads and (False, True) in reads, "the threads interleaved"
