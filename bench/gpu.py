"""GPU benchmarks of the runtime, each measured side by side in one run.

    python bench/gpu.py [--quick] [--json FILE] [--only SECTION]
    .venv/bin/python bench/gpu.py --build sm_90    # here, no GPU: the cubins it launches, into the cache

1. Execution-mode sweep (the seed paper's): a small element-wise kernel
   (2048 f16, four tile blocks) repeated N = 1, 10, 100, 1000 times, driven as
   per-kernel ``.sync_on(stream)``, one chained ``.then()`` pipeline with a
   final sync, the same pipeline awaited (asyncio), and a graph recorded once
   and replayed: microseconds per op, host and GPU time together.
2. Host dispatch overhead of one warm launch (vector add, 2^16 f32): the
   time to enqueue one launch in a loop of many, against ``torch.add`` and a
   Triton kernel doing the same work, in the same run (rounds interleaved,
   the best round of each).  The fresh launch also alternating two sets of
   tensors (each launch on other addresses than the last), and the floors:
   a prepared launch, and ``cuLaunchKernel`` alone.  bench/launch_path.py
   times the Python part of these rows without a GPU.
3. Vector add f32 at N = 2^28: bandwidth (3 x 4 x N bytes per add) of
   safetile, torch.add and Triton, as fractions of the device's copy
   bandwidth measured in the same run (``torch`` device-to-device copy,
   2 x 4 x N bytes).

Needs a GPU, torch and triton; the cubins come from the cache
(``SAFETILE_CACHE_DIR``), built ahead of time where no ``tileiras`` is
installed: by ``--build ARCH`` here (or test/gpu/build_cache.py, which builds
these too).  ``warm_up_specs()`` lists the variants used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import safetile as st
from safetile import f16, f32

SWEEP_N = (1, 10, 100, 1000)
SWEEP_SIZE = 2048
SWEEP_TILE = 512
"""f16, as the seed paper's sweep.  Four tile blocks: measured on an H100 (f32), one block
of 2048 runs 1.7 µs per kernel in a graph, four of 512 run 1.05 µs (torch's in-place
add: 1.17 µs)."""
DISPATCH_SIZE = 1 << 16
BANDWIDTH_SIZE = 1 << 28
VECTOR_TILES = (1024, 2048, 4096)


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel
def inc(z: st.Mut[f16, "S"], x: st.Ref[f16, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + 1.0)


def warm_up_specs() -> list[tuple[st.Kernel, dict[str, Any]]]:
    """The variants this benchmark launches (what a launch derives from its tensors)."""
    def vector(n: int, tile: int | None = None, dtype: st.DType = f32) -> st.TensorSpec:
        return st.TensorSpec(dtype, (n,), (1,), None if tile is None else (tile,), True)

    specs: list[tuple[st.Kernel, dict[str, Any]]] = [
        (inc, dict(z=vector(SWEEP_SIZE, SWEEP_TILE, f16), x=vector(SWEEP_SIZE, dtype=f16))),
        (add, dict(z=vector(DISPATCH_SIZE, 1024), x=vector(DISPATCH_SIZE), y=vector(DISPATCH_SIZE))),
    ]
    specs += [(add, dict(z=vector(BANDWIDTH_SIZE, t), x=vector(BANDWIDTH_SIZE), y=vector(BANDWIDTH_SIZE)))
              for t in VECTOR_TILES]
    return specs


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median seconds of ``fn()`` over ``repeat`` runs (after one warm-up run)."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# -- 1. execution modes -------------------------------------------------------------


def sweep(repeat: int) -> dict[str, dict[int, float]]:
    stream = st.Stream("sweep")
    state: dict[str, Any] = {"z": st.zeros((SWEEP_SIZE,), f16).sync().partition((SWEEP_TILE,)),
                             "x": st.zeros((SWEEP_SIZE,), f16).sync()}

    def chain(n: int) -> st.DeviceOp:
        op = inc(state["z"], state["x"])
        for _ in range(n - 1):
            op = op.then(lambda args: inc(*args))
        return op

    def per_kernel_sync(n: int) -> None:
        z, x = state["z"], state["x"]
        for _ in range(n):
            z, x = inc(z, x).sync_on(stream)
        state["z"], state["x"] = z, x

    def chained(n: int) -> None:
        state["z"], state["x"] = chain(n).sync_on(stream)

    loop = asyncio.new_event_loop()

    def awaited(n: int) -> None:
        async def main() -> Any:
            return await chain(n)

        state["z"], state["x"] = loop.run_until_complete(main())

    results: dict[str, dict[int, float]] = {"sync_on per kernel": {}, "then() chain, one sync": {},
                                            "async (await the chain)": {}, "graph replay": {},
                                            "torch graph replay (reference)": {}}
    for n in SWEEP_N:
        results["sync_on per kernel"][n] = timed(lambda: per_kernel_sync(n), repeat) / n * 1e6
        results["then() chain, one sync"][n] = timed(lambda: chained(n), repeat) / n * 1e6
        results["async (await the chain)"][n] = timed(lambda: awaited(n), repeat) / n * 1e6
        with st.Graph.scope() as s:
            z, x = state["z"], state["x"]
            for _ in range(n):
                z, x = s.record(inc(z, x))
        graph = s.graph

        def replay() -> None:
            graph.replay(stream)
            stream.synchronize()

        results["graph replay"][n] = timed(replay, repeat) / n * 1e6
        graph.release()  # gives z and x back
        state["z"], state["x"] = z, x
        results["torch graph replay (reference)"][n] = torch_graph(n, repeat) / n * 1e6
    return results


def torch_graph(n: int, repeat: int) -> float:
    """Seconds to replay a torch CUDA graph of ``n`` in-place adds on as many elements."""
    import torch

    x = torch.zeros(SWEEP_SIZE, device="cuda", dtype=torch.float16)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x.add_(1.0)  # warm-up outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(n):
            x.add_(1.0)

    def replay() -> None:
        graph.replay()
        torch.cuda.synchronize()

    return timed(replay, repeat)


# -- 2. host dispatch overhead --------------------------------------------------------


def dispatch(launches: int) -> dict[str, float]:
    import torch
    import triton

    stream = st.current_backend().default_stream
    zp = st.zeros((DISPATCH_SIZE,)).sync().partition((1024,))
    x, y = st.ones((DISPATCH_SIZE,)).sync(), st.ones((DISPATCH_SIZE,)).sync()
    tx, ty = torch.ones(DISPATCH_SIZE, device="cuda"), torch.ones(DISPATCH_SIZE, device="cuda")
    tz = torch.empty_like(tx)
    state = {"args": (zp, x, y)}

    def ours() -> None:
        args = state["args"]
        for _ in range(launches):
            args = add(*args).enqueue(stream)
        state["args"] = args

    def torch_add() -> None:
        for _ in range(launches):
            torch.add(tx, ty, out=tz)

    grid = (triton.cdiv(DISPATCH_SIZE, 1024),)

    def triton_add() -> None:
        for _ in range(launches):
            triton_add_kernel[grid](tx, ty, tz, DISPATCH_SIZE, BLOCK=1024)

    def vectors() -> tuple[Any, ...]:
        return (st.zeros((DISPATCH_SIZE,)).sync().partition((1024,)), st.ones((DISPATCH_SIZE,)).sync(),
                st.ones((DISPATCH_SIZE,)).sync())

    ours()  # compiles and loads the variant
    state["other"] = vectors()

    def ours_alternating() -> None:
        a, b = state["args"], state["other"]
        for _ in range(launches // 2):
            a = add(*a).enqueue(stream)
            b = add(*b).enqueue(stream)
        state["args"], state["other"] = a, b

    spare = vectors()
    floor_args = [a.ptr if hasattr(a, "ptr") else a for a in prepared_args(spare)]
    prepared = add(*spare).prepare()
    kernel = next(iter(add.launch_cache.plans.values())).launcher.kernel  # the loaded CudaKernel
    params = kernel.packed(floor_args)

    def ours_prepared() -> None:
        for _ in range(launches):
            prepared.enqueue(stream)

    def driver_only(handle: Any) -> Callable[[], None]:
        # The floor under any launcher written on cuda-python: the bare
        # cuLaunchKernel call of the same cubin, parameters already packed.
        def run() -> None:
            launch, function, address = driver.cuLaunchKernel, kernel.function, params.address
            for _ in range(launches):
                launch(function, DISPATCH_SIZE // 1024, 1, 1, 1, 1, 1, 0, handle, address, 0)

        return run

    def c_call_only() -> None:
        # The same call as the runtime makes it (runtime/cuda/_launch.c where built); through
        # ``handle``: launches that do not record their writes leave the stream's last work unknown.
        enqueue, handle, address = kernel.enqueue, int(stream.handle), params.address
        for _ in range(launches):
            enqueue(DISPATCH_SIZE // 1024, 1, 1, handle, address)

    # The driver's cost by the kind of stream: ours synchronize with the legacy
    # default stream (work torch puts there is ordered with ours), as does that
    # stream itself (torch.add's); a non-blocking stream does not.
    cuda = st.runtime.cuda.driver
    driver = cuda.load()
    non_blocking = cuda.call(driver.cuStreamCreate, driver.CUstream_flags.CU_STREAM_NON_BLOCKING)
    legacy = driver.CUstream(driver.CU_STREAM_LEGACY)

    def synchronizing(handle: Any) -> Callable[[], None]:
        return lambda: cuda.call(driver.cuStreamSynchronize, handle)

    rows = (("safetile", ours, stream.synchronize),
            ("safetile, two tensor sets alternating", ours_alternating, stream.synchronize),
            ("safetile, prepared (`.prepare()`, then `.enqueue()`)", ours_prepared, stream.synchronize),
            ("torch.add", torch_add, torch.cuda.synchronize),
            ("triton", triton_add, torch.cuda.synchronize),
            ("cuLaunchKernel alone (cuda-python)", driver_only(stream.handle), stream.synchronize),
            ("cuLaunchKernel alone (as the runtime calls it)", c_call_only, stream.synchronize),
            ("cuLaunchKernel alone, legacy default stream", driver_only(legacy), synchronizing(legacy)),
            ("cuLaunchKernel alone, non-blocking stream", driver_only(non_blocking), synchronizing(non_blocking)))
    samples: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    for round_ in range(6):  # rounds interleave the launchers: a slow spell of the host hits them all
        for name, fn, sync in rows:
            sync()
            start = time.perf_counter()
            fn()
            elapsed = (time.perf_counter() - start) / launches * 1e6  # enqueue only
            sync()
            if round_:  # the first round warms up
                samples[name].append(elapsed)
    prepared.release()
    cuda.call(driver.cuStreamDestroy, non_blocking)
    return {name: min(times) for name, times in samples.items()}


def prepared_args(tensors: tuple[Any, ...]) -> list[Any]:
    """The ABI parameters of ``add`` on these (spare, already sized) tensors: for the floor row."""
    flat: list[Any] = []
    for t in tensors:
        storage = (t.tensor() if isinstance(t, st.runtime.Partition) else t).storage()
        flat += [storage, *storage.shape, *(s // storage.itemsize for s in storage.strides)]
    return flat


# -- 3. bandwidth -----------------------------------------------------------------------


def bandwidth(repeat: int) -> dict[str, float]:
    import torch
    import triton

    n = BANDWIDTH_SIZE
    nbytes = 4 * n
    tx, ty = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    tz = torch.empty_like(tx)

    def gpu_time(fn: Callable[[], None], sync: Callable[[], None]) -> float:
        fn()
        sync()
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(repeat):
                fn()
            sync()
            samples.append((time.perf_counter() - start) / repeat)
        return min(samples)

    out = {"copy": 2 * nbytes / gpu_time(lambda: tz.copy_(tx), torch.cuda.synchronize) / 1e9}
    out["torch.add"] = 3 * nbytes / gpu_time(lambda: torch.add(tx, ty, out=tz), torch.cuda.synchronize) / 1e9
    grid = (triton.cdiv(n, 1024),)
    out["triton"] = 3 * nbytes / gpu_time(
        lambda: triton_add_kernel[grid](tx, ty, tz, n, BLOCK=1024), torch.cuda.synchronize) / 1e9
    del tx, ty, tz
    torch.cuda.empty_cache()
    stream = st.current_backend().default_stream
    x, y = st.full((n,), 1.0).sync(), st.full((n,), 2.0).sync()
    z = st.zeros((n,)).sync()
    for tile in VECTOR_TILES:
        state = {"args": (z.partition((tile,)), x, y)}

        def ours() -> None:
            state["args"] = add(*state["args"]).enqueue(stream)

        out[f"safetile tile {tile}"] = 3 * nbytes / gpu_time(ours, stream.synchronize) / 1e9
        zp, x, y = state["args"]
        stream.synchronize()
        z = zp.unpartition()
    head = z.numpy()[:4].tolist()
    if head != [3.0] * 4:
        raise AssertionError(f"vector add computed {head}, expected 3.0")
    return out


def _triton_kernel() -> Any:
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):  # noqa: ANN001, ANN202, N803
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
                 mask=mask)

    return kernel


SECTIONS = ("modes", "dispatch", "bandwidth")


def build(arch: str) -> None:
    """Compile every variant this benchmark launches for ``arch`` into the cubin cache (no GPU needed)."""
    for kernel, spec in warm_up_specs():
        st.warm_up(kernel, [spec], arch=arch)
    print(f"built bench/gpu.py's {len(warm_up_specs())} variants for {arch}")


def main() -> int:
    global triton_add_kernel
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run this section (repeatable; default all)")
    parser.add_argument("--build", metavar="ARCH", help="compile the variants for ARCH here (no GPU needed), then exit")
    args = parser.parse_args()
    if args.build:
        build(args.build)
        return 0
    sections = args.only or SECTIONS
    import torch

    triton_add_kernel = _triton_kernel()
    backend = st.current_backend()
    if backend.name != "cuda":
        print("bench/gpu.py needs a GPU", file=sys.stderr)
        return 2
    repeat = 3 if args.quick else 10
    device = backend.device.describe()  # type: ignore[attr-defined]
    date = time.strftime("%Y-%m-%d")
    print(f"# GPU benchmarks: {device}, torch {torch.__version__}, Python {sys.version.split()[0]}, {date}\n")
    modes = host = bw = None
    if "modes" in sections:
        modes = sweep(repeat)
        print("## Execution modes (µs per op, small element-wise kernel)\n")
        print("| mode | " + " | ".join(f"N={n}" for n in SWEEP_N) + " |")
        print("|---|" + "---|" * len(SWEEP_N))
        for mode, row in modes.items():
            print(f"| {mode} | " + " | ".join(f"{row[n]:.2f}" for n in SWEEP_N) + " |")
    if "dispatch" in sections:
        host = dispatch(2000 if not args.quick else 500)
        print("\n## Host dispatch overhead of one warm launch (µs to enqueue, vector add 2^16 f32)\n")
        print("| launcher | µs per launch | ratio to torch.add |")
        print("|---|---|---|")
        for name, us in host.items():
            print(f"| {name} | {us:.2f} | {us / host['torch.add']:.2f} |")
    if "bandwidth" in sections:
        bw = bandwidth(repeat)
        print("\n## Vector add f32, N = 2^28 (GB/s; fraction of copy bandwidth; ratio to torch.add)\n")
        print("| kernel | GB/s | of copy | vs torch.add |")
        print("|---|---|---|---|")
        for name, gbps in bw.items():
            print(f"| {name} | {gbps:.0f} | {gbps / bw['copy']:.3f} | {gbps / bw['torch.add']:.3f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "date": date, "modes": modes, "dispatch": host, "bandwidth": bw}, f, indent=1)
    return 0


triton_add_kernel: Any = None

if __name__ == "__main__":
    sys.exit(main())
