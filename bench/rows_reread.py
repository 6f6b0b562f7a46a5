"""Does the looped row kernels' second pass re-read a row from L2?  The same kernel and config, twice.

    .venv/bin/python bench/rows_reread.py --build sm_90           # here: every walk's cubins 
    SAFETILE_CACHE_DIR=build/gpu-cache python bench/rows_reread.py OUT_DIR

A row wider than the one-tile kernels take goes through the looped kernels of
``examples/{softmax,rms_norm}.py``: a first pass over the row's
column tiles for its statistics, then a second one that normalizes each tile,
so each row is read twice and written once (3 transfers against a copy's 2).
The first pass starts at column tile ``REREAD // BN`` and wraps round to it
(``safetile/rows.py``: ``REREAD``), so the tiles the second pass reads first
are the ones read last; ``REREAD=0`` is the plain left-to-right walk, whose
second pass starts at the tile read longest ago, and twice the shipped
``REREAD`` is timed too.  Each case (softmax,
rms_norm; f16 and f32; 65,536 and 262,144 columns; ``2^26``
elements an input) launches the launcher's default config each way and
times them by ``bench/method.py``'s method (shuffled rounds, each warmed on
itself, L2 flushed before each timed launch), with the copy bandwidth of
``bench/measure.py``.  If the second pass hit L2 every way they would run
alike; if it never did, all would sit near 2/3 of the copy.  OUT_DIR gets
``reread.json`` and ``reread.md``.
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
import rms_norm as rms_norm_example  # noqa: E402
import softmax as softmax_example  # noqa: E402
from method import ClockSampler, Method  # noqa: E402

from safetile.rows import REREAD  # noqa: E402

MODULES = {"softmax": softmax_example, "rms_norm": rms_norm_example}
"""layer_norm's looped kernel walks left to right: in two loops its candidates spilled or ran slower
(docs/benchmarks.md §5, run -s5)."""
WIDTHS = (65536, 262144)
DTYPES = ("f16", "f32")
WAYS = {f"REREAD={REREAD}": REREAD, f"REREAD={2 * REREAD}": 2 * REREAD, "REREAD=0": 0}
"""The walks: the shipped one, one that leaves twice as much to re-read, left to right (the ratios
are to it)."""
METHOD = Method(rounds=10, warm=5, reps=3, flush_l2=True)


def cases() -> list[bench_kernels.Case]:
    return [c for c in bench_kernels.cases(quick=False)
            if c.workload in MODULES and c.dtype in DTYPES and c.shape[1] in WIDTHS]


def kernel_and_config(case: bench_kernels.Case) -> tuple[Any, dict[str, Any]]:
    """The looped kernel with the default config's hints, and that config."""
    module = MODULES[case.workload]
    config = module.LAUNCHER.table.default(case.shape[1], getattr(st, case.dtype))
    assert module.LAUNCHER.table.is_looped(case.shape[1], getattr(st, case.dtype)), case.name
    return module.LAUNCHER.looped.with_options(optimization_hints=config["optimization_hints"]), config


def generics(case: bench_kernels.Case, reread: int) -> dict[str, int]:
    """The launch's generics, in the build's order (a variant's name lists them as given)."""
    return (dict(LOG=0) if case.workload == "softmax" else {}) | dict(REREAD=reread)


def build(arch: str) -> int:
    """Every walk's cubins for every case into the cache for ``arch`` (16 rows, as the GPU's are
    divisible by 16)."""
    for case in cases():
        kernel, config = kernel_and_config(case)
        spec = bench_kernels.launcher_spec(case)
        spec["z"] = bench_kernels._matrix(getattr(st, case.dtype), (16, case.shape[1]), (1, config["BN"]))
        for reread in WAYS.values():
            (done,) = kernel.warm_up([spec | generics(case, reread)], arch=arch)
            print(f"{case.name} {st.Config(**config).text} REREAD={reread}: {done.cubin}", flush=True)
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
            kernel, config = kernel_and_config(case)
            a = bench_kernels._inputs(case, torch)
            reference = bench_kernels._torch_calls(case, a, torch)["torch"]()
            impls, held = {}, []
            for name, reread in WAYS.items():
                out_tensor = torch.full_like(a["x"], math.nan)
                args = [t(a["x"])] + ([] if case.workload == "softmax" else [t(a["w"]), bench_kernels.EPS])
                prepared = kernel(t(out_tensor).partition((1, config["BN"])), *args, **generics(case, reread),
                                  grid=(case.shape[0],)).prepare()
                prepared.enqueue()
                stream.synchronize()
                error = ((out_tensor.float() - reference.float()).abs().max() / reference.float().abs().max()).item()
                if not error < 2e-2:
                    raise RuntimeError(f"{case.name} {name}: relative error {error:.3g}")
                impls[name] = prepared.enqueue
                held.append(prepared)
            measured = METHOD.compare(impls, "REREAD=0", st.current_backend().default_stream, sampler=sampler)
            for prepared in held:
                prepared.release()
            for name in impls:
                seconds = measured.summary(name)["burst_s"]
                rows.append(dict(case=case.name, config=st.Config(**config).text, walk=name, burst_ms=seconds * 1e3,
                                 gbps=case.work / seconds / 1e9, vs_left_to_right=measured.ratio(name, "REREAD=0")))
            print(case.name, "; ".join(f"{r['walk']} {r['gbps']:.0f} GB/s ({r['vs_left_to_right']:.3f}x)"
                                       for r in rows[-len(WAYS):]), flush=True)
    copies.append(copy_bandwidth(torch) / 1e9)
    for r in rows:
        r["of_copy"] = r["gbps"] / max(copies)
    header = (f"# The looped row kernels' second pass: {torch.cuda.get_device_name()}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\nCopy bandwidth (start / end): "
              f"{copies[0]:.0f} / {copies[1]:.0f} GB/s")
    lines = [header, "", "| case | config | walk | GB/s (burst, L2 flushed) | of the copy | vs REREAD=0 |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {r['config']} | {r['walk']} | {r['gbps']:.0f} | {r['of_copy']:.3f} | "
              f"{r['vs_left_to_right']:.3f} |" for r in rows]
    out.mkdir(parents=True, exist_ok=True)
    (out / "reread.md").write_text("\n".join(lines) + "\n")
    (out / "reread.json").write_text(json.dumps(dict(header=header, copy_gbps=copies, rows=rows,
                                                     clocks=sampler.samples), indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help="the folder for reread.md and reread.json")
    parser.add_argument("--build", metavar="ARCH", help="compile every walk's variants for ARCH here (no GPU needed)")
    args = parser.parse_args(argv)
    if args.build:
        return build(args.build)
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print("bench/rows_reread.py times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    return run(args.out)


if __name__ == "__main__":
    sys.exit(main())
