"""The Python cost of one kernel launch on the CUDA backend, measured without a GPU.

    .venv/bin/python bench/launch_path.py [--launches N] [--profile]

The CUDA backend runs unchanged over the stand-in driver of
``test/unit/fake_cuda.py`` (host memory behind fake device addresses,
``cuLaunchKernel`` a no-op), so the time of a launch here is the runtime's
Python path alone: what bench/gpu.py's dispatch rows add to the driver's own
call.  The kernel is bench/gpu.py's vector add on 2^16 f32 (tile 1024); its
cubin comes from the cache (compiled with tileiras on first use).

Rows (µs per launch, best of 7 loops of N launches):

* fresh launch: ``z, x, y = add(z, x, y).enqueue(stream)`` (bench/gpu.py's
  "safetile" row), and the same split into the call ``add(z, x, y)`` (plan
  lookup, checks, moves) and ``.enqueue(stream)`` (the launch, the handles
  given back);
* fresh launch alternating two sets of tensors: every launch has other
  addresses (parameters packed, disjointness checked afresh);
* prepared: ``p.enqueue(stream)`` of a ``.prepare()``d launch;
* the stand-in ``cuLaunchKernel`` alone (part of every row above; the real
  call's cost is measured on the GPU).

``--profile`` also prints cProfile's top functions of the fresh launch.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test" / "unit"))

import safetile as st  # noqa: E402
from fake_cuda import fake_cuda  # noqa: E402  (test/unit/fake_cuda.py)
from gpu import DISPATCH_SIZE, add  # noqa: E402  (bench/gpu.py)

TILE = 1024


def best(loop: Callable[[int], float | None], launches: int, rounds: int = 7) -> float:
    """The best µs per launch of ``rounds`` runs of ``loop(launches)`` (its own time if it returns one)."""
    loop(launches // 10)  # warm
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        own = loop(launches)
        samples.append((own if own is not None else time.perf_counter() - start) / launches * 1e6)
    return min(samples)


def tensors() -> list[object]:
    return [st.zeros((DISPATCH_SIZE,)).sync().partition((TILE,)), st.ones((DISPATCH_SIZE,)).sync(),
            st.ones((DISPATCH_SIZE,)).sync()]


def measure(launches: int, profile: bool) -> dict[str, float]:
    stream = st.current_backend().default_stream
    state = {"args": tuple(tensors()), "other": tuple(tensors())}
    state["args"] = add(*state["args"]).enqueue(stream)  # compiles and loads the variant

    def fresh(n: int) -> None:
        args = state["args"]
        for _ in range(n):
            args = add(*args).enqueue(stream)
        state["args"] = args

    def call_only(n: int) -> float:
        args, clock, spent = state["args"], time.perf_counter, 0.0
        for _ in range(n):
            start = clock()
            op = add(*args)
            spent += clock() - start
            args = op.enqueue(stream)
        state["args"] = args
        return spent

    def enqueue_only(n: int) -> float:
        args, clock, spent = state["args"], time.perf_counter, 0.0
        for _ in range(n):
            op = add(*args)
            start = clock()
            args = op.enqueue(stream)
            spent += clock() - start
        state["args"] = args
        return spent

    def alternating(n: int) -> None:
        a, b = state["args"], state["other"]
        for _ in range(n // 2):
            a = add(*a).enqueue(stream)
            b = add(*b).enqueue(stream)
        state["args"], state["other"] = a, b

    out = {
        "fresh launch `add(z, x, y).enqueue(stream)`": best(fresh, launches),
        "  the call `add(z, x, y)`": best(call_only, launches),
        "  `.enqueue(stream)`": best(enqueue_only, launches),
        "fresh launch, two tensor sets alternating": best(alternating, launches),
    }
    prepared = add(*state["other"]).prepare()

    def prepared_loop(n: int) -> None:
        for _ in range(n):
            prepared.enqueue(stream)

    out["prepared `p.enqueue(stream)`"] = best(prepared_loop, launches)
    state["other"] = prepared.release()
    driver = st.runtime.cuda.driver.load()

    def driver_only(n: int) -> None:
        launch = driver.cuLaunchKernel
        for _ in range(n):
            launch(1, 64, 1, 1, 1, 1, 1, 0, 2, 3, 0)

    out["stand-in cuLaunchKernel alone"] = best(driver_only, launches)
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(fresh, launches)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", type=int, default=20000, help="launches per timed loop")
    parser.add_argument("--profile", action="store_true", help="also print cProfile's top functions")
    args = parser.parse_args()
    with fake_cuda():
        rows = measure(args.launches, args.profile)
    print(f"# Python path of a launch (CUDA backend over a stand-in driver; Python {sys.version.split()[0]})\n")
    print("| launch | µs |")
    print("|---|---|")
    for name, us in rows.items():
        print(f"| {name} | {us:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
