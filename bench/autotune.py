"""Autotuning on the GPU: GEMM and softmax from examples/, every config timed, the table written.

    SAFETILE_CACHE_DIR=build/gpu-cache python bench/autotune.py OUT.md
    .venv/bin/python bench/autotune.py --build sm_90      # here, no GPU: every candidate's cubin

GEMM (``examples/gemm.py``, f16, 4096^3): tile shapes x {8 worker warps per
CTA or not} x {load latency 6 or not}.  Softmax (``examples/softmax.py``,
f32, 4096 x 4096): tile shapes x {occupancy 2, 3 or none}.  Each tuned
kernel is launched twice: the first launch tunes (its wall time is the
tuning time: compiles from the cache, pruning, timing) and writes the
record beside the cubin cache; the second reuses the choice.  OUT.md gets,
per kernel, the chosen config, the tuning time, and the table of every
config's median time or why it was dropped.  Run it again: the tuning time
is then the reuse of the record (no timing).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

import safetile as st  # noqa: E402
from gemm import gemm  # noqa: E402
from safetile import f16, f32  # noqa: E402
from softmax import softmax  # noqa: E402

GEMM_SIZE = 4096
GEMM_TILES = [(128, 128, 64), (128, 256, 64), (256, 128, 64), (64, 128, 64)]
WARPS = {"sm_90": {"num_worker_warps_per_cta": 8}}
LATENCY = {"sm_90": {"latency": 6}}
SOFTMAX_ROWS, SOFTMAX_COLS = 4096, 4096
SOFTMAX_TILES = [(1, 4096), (2, 4096), (4, 2048), (8, 1024)]
OCCUPANCY = [None, 2, 3]


def gemm_configs() -> list[dict[str, Any]]:
    return [dict(BM=bm, BN=bn, BK=bk, optimization_hints=warps, load_hints=latency)
            for bm, bn, bk in GEMM_TILES for warps in (None, WARPS) for latency in (None, LATENCY)]


def softmax_configs() -> list[dict[str, Any]]:
    return [dict(BM=bm, BN=bn, optimization_hints={"sm_90": {"occupancy": o}} if o else None)
            for bm, bn in SOFTMAX_TILES for o in OCCUPANCY]


tuned_gemm = st.autotune(configs=gemm_configs(), key=["x", "y"])(gemm)
tuned_softmax = st.autotune(configs=softmax_configs(), key=["x"])(softmax)


def warm_up_specs() -> list[tuple[Any, dict[str, Any]]]:
    """What the launches below derive from their tensors (each config tiles the output its way)."""
    def matrix(dtype: st.DType, rows: int, cols: int) -> st.TensorSpec:
        return st.TensorSpec(dtype, (rows, cols), (cols, 1), None, True)

    square = matrix(f16, GEMM_SIZE, GEMM_SIZE)
    rows = matrix(f32, SOFTMAX_ROWS, SOFTMAX_COLS)
    return [(tuned_gemm, dict(z=square, x=square, y=square)), (tuned_softmax, dict(z=rows, x=rows))]


def tune_twice(name: str, tuned: Any, args: tuple[Any, ...], check: Callable[[np.ndarray], None],
               flop: float | None) -> str:
    """Tune (first launch) and reuse (second); the section of the report."""
    started = time.perf_counter()
    out, *inputs = tuned(*args).sync()
    tuning = time.perf_counter() - started
    check(out.numpy())
    started = time.perf_counter()
    out, *_ = tuned(out, *inputs).sync()
    reuse = time.perf_counter() - started
    (result,) = tuned.tunings.values()
    chosen = result.outcomes[result.chosen]
    rate = f", {flop / chosen.ms / 1e9:.0f} TFLOP/s" if flop and chosen.ms else ""
    return (f"## {name}\n\nchosen: config {result.chosen} ({chosen.config}): {chosen.ms} ms{rate}; first launch "
            f"(tuning) {tuning:.2f} s, second launch {reuse * 1e3:.1f} ms\n\n{tuned.report()}\n")


def run(out: Path) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((GEMM_SIZE, GEMM_SIZE), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((GEMM_SIZE, GEMM_SIZE), dtype=np.float32).astype(np.float16)
    z = st.full((GEMM_SIZE, GEMM_SIZE), np.nan, f16).sync()
    some_rows = a[:256].astype(np.float32) @ b.astype(np.float32)  # the whole product is slow on the host
    gemm_args = (z, st.from_numpy(a).sync(), st.from_numpy(b).sync())
    sections = [tune_twice("GEMM f16 4096^3 (examples/gemm.py)", tuned_gemm, gemm_args,
                           lambda got: np.testing.assert_allclose(got[:256], some_rows, rtol=1e-2, atol=0.5),
                           2.0 * GEMM_SIZE**3)]
    x = rng.standard_normal((SOFTMAX_ROWS, SOFTMAX_COLS), dtype=np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    softmax_args = (st.full((SOFTMAX_ROWS, SOFTMAX_COLS), np.nan, f32).sync(), st.from_numpy(x).sync())
    sections.append(tune_twice("softmax f32 4096 x 4096 (examples/softmax.py)", tuned_softmax, softmax_args,
                               lambda got: np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True),
                                                                      rtol=1e-4, atol=1e-7),
                               None))
    device = st.current_backend().device_name
    out.write_text(f"# Autotuning on {device}\n\n" + "\n".join(sections))
    print(out.read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="the markdown file to write")
    parser.add_argument("--build", metavar="ARCH", help="build every candidate's cubin for ARCH into the cache")
    parser.add_argument("--jobs", type=int, help="with --build: tileiras processes at a time (default: one per core)")
    args = parser.parse_args(argv)
    if args.build:
        for tuned, spec in warm_up_specs():
            started = time.perf_counter()
            built = tuned.warm_up([spec], arch=args.build, jobs=args.jobs)
            print(f"{tuned.name}: {len(built)} cubins in {time.perf_counter() - started:.1f} s")
        return 0
    if args.out is None:
        parser.error("give the markdown file to write (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print("bench/autotune.py times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    run(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
