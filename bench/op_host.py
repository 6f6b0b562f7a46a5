"""The host cost of one warm kernel-op call (``st.kernel_op``), measured without a GPU.

    .venv/bin/python bench/op_host.py [--calls N] [--profile] [--out FILE.json]

A kernel op's call in a training step is its warm path (runtime/torch/custom_op.py:
a signature seen before): torch's dispatch (the op's own autograd kernel calling the
real implementation where no gradient is wanted), the signature, the outputs'
``torch.empty``, a storage a tensor, the overlap check, the launcher (no recipe).  The rows (µs a
call of the thread's CPU time, the best of 7 loops of N calls):

* ``op, CPU tensors``: the whole call of a one-input, one-output kernel op on CPU
  tensors through torch's dispatcher, with the plan's launcher a no-op and the
  wait for it left out (the kernel's run is the interpreter's; bench/launch_path.py
  times the launcher over the stand-in driver); eagerly and inside a graph
  ``torch.compile(backend="aot_eager")`` made (how a compiled step calls it);
* ``op, CPU tensors, requires grad``: the same on an input that requires grad (the
  autograd node torch's custom op makes: a forward op in a training step);
* ``real, stand-in GPU tensors``: the op's real implementation alone (no torch
  dispatch) on the CUDA backend over the stand-in driver (test/unit/fake_cuda.py)
  with stand-in CUDA torch tensors (test/unit/test_torch_cuda_edge.py's): torch's
  current stream, the allocator told, the storages, the launch through the C call
  into the no-op ``cuLaunchKernelEx``;
* ``torch.empty_like``: one torch op's host cost on the same machine, for scale.

On a GPU (the cuda backend in use, torch with CUDA) the rows are instead those of
real CUDA tensors, the kernel launched (``gpu_rows``): the op eagerly, as a compiled
graph calls it (``torch.ops...default`` with grad mode off), with an input that
requires grad, its real implementation's warm path alone (``_Warm.run``) and its
launch alone (``_Warm._launch_on_gpu``: torch's current stream, the allocator told,
the launch), and torch's own pieces for scale: ``torch.empty`` of the output, a
``record_stream``, ``torch.cuda.current_stream()``, the raw handle
(``torch._C._cuda_getCurrentRawStream``), ``x * 2``.

``--profile`` prints cProfile's top functions of the op's eager call (CPU or CUDA
tensors) and of the stand-in real implementation.  The figures are the machine's (a
loaded 2-core one here): compare rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test" / "unit"))

import torch  # noqa: E402

import safetile as st  # noqa: E402
from safetile.runtime.torch import KernelLaunch, OutputSpec, custom_op  # noqa: E402

N = 256


@st.kernel
def scale(y: st.Mut["E", ("B",)], x: st.Ref["E", (-1,)], *, E: st.DType, B: int):
    b = st.tile_block_id()[0]
    y.store(x.partition((B,), padding="zero").load((b,)) * 2.0)


@st.kernel_op("bench_op_host::scale")
def scale_op(x: torch.Tensor) -> KernelLaunch:
    return KernelLaunch(scale, [OutputSpec(tuple(x.shape), x.dtype, (128,))], [x])


def best(loop: Callable[[int], None], calls: int, rounds: int = 7) -> float:
    """The best µs a call of ``rounds`` runs of ``loop(calls)``, in the thread's CPU time (on a
    machine shared with other work, wall time counts the time others run)."""
    loop(max(1, calls // 10))
    samples = []
    for _ in range(rounds):
        start = time.thread_time()
        loop(calls)
        samples.append((time.thread_time() - start) / calls * 1e6)
    return min(samples)


def _print_profile(run: Callable[[int], Any], calls: int, title: str, lines: int) -> None:
    """cProfile of ``run(calls)``, its ``lines`` costliest functions by their own time, under ``title``."""
    profiler = cProfile.Profile()
    profiler.runcall(run, calls)
    print(f"== {title}")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


def _repeat(call: Callable[[], Any]) -> Callable[[int], None]:
    def loop(n: int) -> None:
        for _ in range(n):
            call()

    return loop


def cpu_rows(calls: int, profile: bool) -> dict[str, float]:
    x = torch.randn(N)
    scale_op(x)  # the signature's first call: launch, the plan remembered
    (plan,) = scale.launch_cache.plans.values()
    plan.launcher.launch = lambda args, stream, options: None  # the kernel's run left out
    st.current_backend().default_stream.synchronize = lambda: None  # nothing to wait for
    graph = torch.compile(lambda x: scale_op(x), backend="aot_eager", fullgraph=True)
    graph(x)
    grad = torch.randn(N, requires_grad=True)
    scale_op(grad)
    rows = {
        "op, CPU tensors, eager": best(_repeat(lambda: scale_op(x)), calls),
        "op, CPU tensors, in a compiled graph": best(_repeat(lambda: graph(x)), calls),
        "op, CPU tensors, requires grad, eager": best(_repeat(lambda: scale_op(grad)), calls),
        "torch.empty_like": best(_repeat(lambda: torch.empty_like(x)), calls),
    }
    if profile:
        _print_profile(_repeat(lambda: scale_op(x)), calls, "op, CPU tensors, eager", 25)
    return rows


def stand_in_gpu_rows(calls: int, profile: bool) -> dict[str, float]:
    import numpy as np

    from fake_cuda import fake_cuda  # test/unit/fake_cuda.py
    from test_torch_cuda_edge import FakeCudaTensor, FakeTorchStream  # its stand-in CUDA torch tensors

    with fake_cuda() as driver:
        scale.launch_cache = st.runtime.LaunchCache()  # the interpreter's plans are not this backend's
        current = FakeTorchStream(driver.cuStreamCreate(0)[1])
        saved = torch.cuda.current_stream
        torch.cuda.current_stream = lambda device=None: current  # type: ignore[assignment]
        try:
            log = _NoLog()
            y, x = (FakeCudaTensor(st.from_numpy(np.zeros(N, np.float32)).sync(), 0, N, log) for _ in range(2))
            custom_op._allocate = lambda outputs, device: [y]  # type: ignore[assignment]
            memo: dict[Any, Any] = {}

            def call() -> None:
                custom_op._call("bench_op_host::scale", scale_op_launch, (x,), 1, memo)

            call()
            rows = {"real, stand-in GPU tensors": best(_repeat(call), calls)}
            if profile:
                profiler = cProfile.Profile()
                profiler.runcall(_repeat(call), calls)
                print("== real, stand-in GPU tensors")
                pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            return rows
        finally:
            torch.cuda.current_stream = saved  # type: ignore[assignment]


def gpu_rows(calls: int, profile: bool) -> dict[str, float]:
    """The rows on real CUDA tensors (the kernel launched; its GPU time, a few µs, is far below a
    call's host time, so the host's time is what is measured; the stream is waited for after each
    loop)."""
    x = torch.randn(N, device="cuda")
    grad = torch.randn(N, device="cuda", requires_grad=True)
    scale_op(x)  # the signature's first call (a MissingCubin here: the cache was not built for it)
    scale_op(grad)
    torch.testing.assert_close(scale_op(x), x * 2)
    overload = torch.ops.bench_op_host.scale.default
    # (the code of an earlier commit has no ``gpu`` field nor ``_launch_on_gpu``: its rows are left out)
    warm = next(w for memo in custom_op._MEMOS for w in memo.values() if w.kernel is scale and w.arrays is not None)
    y = torch.empty(N, device="cuda")
    stream = torch.cuda.current_stream()

    def synced(call: Callable[[], Any]) -> Callable[[int], None]:
        def loop(n: int) -> None:
            for _ in range(n):
                call()
            torch.cuda.synchronize()

        return loop

    def compiled_graph_calls(n: int) -> None:
        with torch.no_grad():
            for _ in range(n):
                overload(x)
        torch.cuda.synchronize()

    raw = torch._C._cuda_getCurrentRawStream
    rows = {
        "op, CUDA tensors, eager": best(synced(lambda: scale_op(x)), calls),
        "op, CUDA tensors, torch.ops default, grad mode off": best(compiled_graph_calls, calls),
        "op, CUDA tensors, requires grad, eager": best(synced(lambda: scale_op(grad)), calls),
        "real implementation, warm path (_Warm.run)": best(synced(lambda: warm.run((x,))), calls),
        "torch.empty, CUDA": best(synced(lambda: torch.empty((N,), dtype=torch.float32, device=x.device)), calls),
        "Tensor.record_stream": best(synced(lambda: x.record_stream(stream)), calls),
        "torch.cuda.current_stream()": best(synced(torch.cuda.current_stream), calls),
        "torch._C._cuda_getCurrentRawStream(0)": best(synced(lambda: raw(0)), calls),
        "x * 2, eager": best(synced(lambda: x * 2), calls),
    }
    if hasattr(warm, "_launch_on_gpu"):
        rows["its launch alone (_Warm._launch_on_gpu)"] = best(
            synced(lambda: warm._launch_on_gpu(warm.gpu, [y, x], [x])), calls)
    if profile:
        _print_profile(synced(lambda: scale_op(x)), calls, "op, CUDA tensors, eager", 30)
    return rows


class _NoLog(list[Any]):
    """The stand-in tensors' log, keeping nothing (a bench makes thousands of calls)."""

    def append(self, entry: Any) -> None:
        pass


def scale_op_launch(x: Any) -> KernelLaunch:
    return KernelLaunch(scale, [OutputSpec((N,), torch.float32, (128,))], [x])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    print(f"safetile from {Path(st.__file__).parent}", flush=True)
    if st.current_backend().name == "cuda":
        rows = gpu_rows(args.calls, args.profile)
    else:
        rows = {**cpu_rows(args.calls, args.profile), **stand_in_gpu_rows(args.calls, args.profile)}
    for name, us in rows.items():
        print(f"{name:45s} {us:8.1f} µs")
    if args.out is not None:
        args.out.write_text(json.dumps({"torch": torch.__version__, "calls": args.calls, "backend": st.current_backend().describe(),
                                        "us": rows}, indent=1))


if __name__ == "__main__":
    main()
