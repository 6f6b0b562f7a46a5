"""A 16-bit softmax row of 16384 columns: one tile (``softmax_row``) against the looped kernel, in one run.

    .venv/bin/python bench/rows_wide_tile.py --build sm_90        # here: every variant's cubin
    SAFETILE_CACHE_DIR=build/gpu-cache python bench/rows_wide_tile.py OUT_DIR

The launcher gives 16-bit softmax rows of 16384 columns to the looped
kernel (``SOFTMAX.widest[16]`` is 8192): one tile ran at 0.45 of Triton in
run -B (docs/benchmarks.md §5), where f32 rows of 16384 in one tile reach
0.99.  This times ``softmax_row`` with one row of 16384 a block under four
sm_90 hint sets (occupancy 2, none, 8 worker warps, 8 worker warps at
occupancy 2) against the looped kernel's default config, softmax and
log-softmax, f16 and bf16 (``2^26`` elements an input), by
``bench/method.py``'s method (shuffled rounds, each warmed on itself, L2
flushed before each timed launch), every output checked against torch.
OUT_DIR gets ``wide_tile.json`` and ``wide_tile.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels, method (python -P leaves it out)

import safetile as st  # noqa: E402
import kernels as bench_kernels  # noqa: E402
import softmax as softmax_example  # noqa: E402
from method import ClockSampler, Method  # noqa: E402

WIDTH = 16384
ONE_TILE_HINTS = {"occupancy 2": {"occupancy": 2}, "no hint": {},
                  "8 warps": {"num_worker_warps_per_cta": 8},
                  "8 warps, occupancy 2": {"num_worker_warps_per_cta": 8, "occupancy": 2}}
METHOD = Method(rounds=10, warm=5, reps=3, flush_l2=True)


def cases() -> list[bench_kernels.Case]:
    return [c for c in bench_kernels.cases(quick=False) if c.workload in ("softmax", "log_softmax")
            and c.dtype in ("f16", "bf16") and c.shape[1] == WIDTH]


def impls(case: bench_kernels.Case) -> dict[str, tuple[Any, tuple[int, int], dict[str, Any]]]:
    """Name -> (kernel with its hints, the output's tile, extra launch arguments)."""
    looped = softmax_example.LAUNCHER.table.default(WIDTH, getattr(st, case.dtype))
    assert softmax_example.LAUNCHER.table.is_looped(WIDTH, getattr(st, case.dtype))
    found = {f"one tile, {name}": (softmax_example.softmax_row.with_options(optimization_hints={"sm_90": hints}),
                                   (1, WIDTH), {}) for name, hints in ONE_TILE_HINTS.items()}
    found[f"looped (the default: {st.Config(**looped).text})"] = (
        softmax_example.softmax.with_options(optimization_hints=looped["optimization_hints"]),
        (looped["BM"], looped["BN"]), dict(grid=(case.shape[0],)))
    return found


def build(arch: str) -> int:
    """Every variant's cubin into the cache for ``arch`` (16 rows, as the GPU's are divisible by 16)."""
    for case in cases():
        dtype = getattr(st, case.dtype)
        for name, (kernel, tile, _) in impls(case).items():
            spec = dict(z=bench_kernels._matrix(dtype, (16, WIDTH), tile), x=bench_kernels._matrix(dtype, (16, WIDTH)),
                        LOG=int(case.workload == "log_softmax"))
            (done,) = kernel.warm_up([spec], arch=arch)
            print(f"{case.name} {name}: {done.cubin}", flush=True)
    return 0


def run(out: Path) -> int:
    import torch

    from measure import copy_bandwidth

    t = st.as_tensor
    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    copies = [copy_bandwidth(torch) / 1e9]
    rows: list[dict[str, Any]] = []
    with ClockSampler() as sampler, torch.cuda.stream(stream):
        for case in cases():
            a = bench_kernels._inputs(case, torch)
            reference = bench_kernels._torch_calls(case, a, torch)["torch"]()
            calls, held = {}, []
            for name, (kernel, tile, extra) in impls(case).items():
                out_tensor = torch.full_like(a["x"], math.nan)
                prepared = kernel(t(out_tensor).partition(tile), t(a["x"]), LOG=int(case.workload == "log_softmax"),
                                  **extra).prepare()
                prepared.enqueue()
                stream.synchronize()
                error = ((out_tensor.float() - reference.float()).abs().max() / reference.float().abs().max()).item()
                if not error < 4e-2:
                    raise RuntimeError(f"{case.name} {name}: relative error {error:.3g}")
                calls[name] = prepared.enqueue
                held.append(prepared)
            looped = next(n for n in calls if n.startswith("looped"))
            measured = METHOD.compare(calls, looped, st.current_backend().default_stream, sampler=sampler)
            for prepared in held:
                prepared.release()
            for name in calls:
                seconds = measured.summary(name)["burst_s"]
                rows.append(dict(case=case.name, impl=name, burst_ms=seconds * 1e3, gbps=case.work / seconds / 1e9,
                                 vs_looped=measured.ratio(name, looped)))
            print(case.name, "; ".join(f"{r['impl']} {r['gbps']:.0f} GB/s ({r['vs_looped']:.3f}x)"
                                       for r in rows[-len(calls):]), flush=True)
    copies.append(copy_bandwidth(torch) / 1e9)
    for r in rows:
        r["of_copy"] = r["gbps"] / max(copies)
    header = (f"# 16-bit softmax at {WIDTH} columns, one tile or looped: {torch.cuda.get_device_name()}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\nCopy bandwidth (start / end): "
              f"{copies[0]:.0f} / {copies[1]:.0f} GB/s")
    lines = [header, "", "| case | kernel | GB/s (burst, L2 flushed) | of the copy | vs looped |", "|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {r['impl']} | {r['gbps']:.0f} | {r['of_copy']:.3f} | {r['vs_looped']:.3f} |"
              for r in rows]
    out.mkdir(parents=True, exist_ok=True)
    (out / "wide_tile.md").write_text("\n".join(lines) + "\n")
    (out / "wide_tile.json").write_text(json.dumps(dict(header=header, copy_gbps=copies, rows=rows,
                                                        clocks=sampler.samples), indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help="the folder for wide_tile.md and wide_tile.json")
    parser.add_argument("--build", metavar="ARCH", help="compile every variant for ARCH here (no GPU needed)")
    args = parser.parse_args(argv)
    if args.build:
        return build(args.build)
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print("bench/rows_wide_tile.py times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    return run(args.out)


if __name__ == "__main__":
    sys.exit(main())
