"""What the GPU benchmarks of one workload share: the copy and read bandwidths, a graph's time per launch, the
time each kernel adds, and the command line of a script that builds its cubins here and runs them on the GPU.

Imported by the scripts beside it (``qwen3.py``, ``attention_probe.py``, ``gemv_probe.py``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _best_seconds(torch: Any, work: Callable[[], Any], runs: int = 20) -> float:
    """The shortest of ``runs`` timings of ``work()`` on the GPU (CUDA events)."""
    best = float("inf")
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    return best


def copy_bandwidth(torch: Any) -> float:
    """Bytes read plus written per second of a 1 GiB device-to-device copy (best of 20)."""
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    return 2 * src.numel() / _best_seconds(torch, lambda: dst.copy_(src))


def read_bandwidth(torch: Any) -> float:
    """Bytes read per second by ``torch.sum`` over 1 GiB of bf16 (best of 20): what a kernel
    that only streams its input can reach."""
    src = torch.ones(1 << 29, dtype=torch.bfloat16, device="cuda")
    return 2 * src.numel() / _best_seconds(torch, lambda: src.sum(dtype=torch.float32))


def seconds_per_launch(graph: Any, launches: int, replays: int = 10, rounds: int = 5) -> float:
    """A recorded graph of ``launches`` launches: the best round of ``replays`` replays, per launch
    (the gaps between launches included).  Releases the graph."""
    graph.replay()
    graph.stream.synchronize()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(replays):
            graph.replay()
        graph.stream.synchronize()
        best = min(best, (time.perf_counter() - start) / replays / launches)
    graph.release()
    return best


def kernel_times(replay: Callable[[], None], torch: Any, replays: int = 8) -> dict[str, float]:
    """Microseconds per ``replay()`` that each kernel adds to the GPU's busy time (summed over its
    launches), from torch.profiler, slowest first: from the kernel's start, or from the end of the
    kernel before it where it started earlier (a programmatic dependent launch: its blocks wait
    while that one drains), to its end.  Gaps between kernels count for none; for kernels that
    run one after another this is their time in the kernel."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    replay()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            replay()
        torch.cuda.synchronize()
    kernels = sorted((e for e in prof.events() if e.device_type == DeviceType.CUDA),
                     key=lambda e: e.time_range.start)
    totals: dict[str, float] = {}
    busy_until = float("-inf")
    for event in kernels:
        start, end = event.time_range.start, event.time_range.end
        totals[event.name] = totals.get(event.name, 0.0) + max(0.0, end - max(start, busy_until)) / replays
        busy_until = max(busy_until, end)
    return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def build_or_run(doc: str, build: Callable[[str], None], run: Callable[..., None],
                 add_arguments: Callable[[argparse.ArgumentParser], None] | None = None) -> None:
    """``script.py --build ARCH`` (here: the cubins into the cache) or ``script.py OUT_DIR`` (the GPU):
    ``run(out, **options)``, the options being those ``add_arguments`` adds to the parser."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="folder for the results")
    parser.add_argument("--build", metavar="ARCH", help="compile every variant for ARCH here (no GPU needed)")
    if add_arguments is not None:
        add_arguments(parser)
    options = vars(parser.parse_args())
    out, arch = options.pop("out"), options.pop("build")
    if arch:
        build(arch)
    elif out is None:
        parser.error("give the output folder (or --build ARCH)")
    else:
        run(out, **options)
