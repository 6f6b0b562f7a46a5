"""The harness of the row probes (bench/rows_reread.py, bench/rows_wide_tile.py): a few ways of
running one row workload, timed against each other in one run.

A probe names its cases (``kernels.Case``s of bench/kernels.py) and, for a case, its ways: each a
launch of a kernel into an output tensor.  ``run`` checks every way's output against torch's,
times the ways of a case by ``bench/method.py``'s method (shuffled rounds, each warmed on itself,
L2 flushed before each timed launch: ``METHOD``), and writes ``STEM.md`` (a table: GB/s, share of
the copy bandwidth of bench/measure.py taken before and after, ratio to the probe's baseline way)
and ``STEM.json`` (the rows with each way's ratio to every other way of its case, the copies, the
clock samples) into the output folder.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import safetile as st

import kernels as bench_kernels
from method import ClockSampler, Method

METHOD = Method(rounds=10, warm=5, reps=3, flush_l2=True)

Way = Callable[[Any, dict[str, Any]], Any]
"""(the output tensor, the case's torch inputs) -> the prepared launch (``Launch.prepare()``)."""


@dataclass(frozen=True)
class Probe:
    """What a probe times: its cases, each case's ways, and how its table names them."""

    stem: str
    """``STEM.md`` and ``STEM.json``."""
    title: str
    """The table's heading (the device and the date follow)."""
    cases: Callable[[], list[bench_kernels.Case]]
    ways: Callable[[bench_kernels.Case], dict[str, Way]]
    """A case's ways by name, the baseline among them."""
    baseline: Callable[[Sequence[str]], str]
    """Of a case's way names, the one the ratios are to."""
    tolerance: float
    """The largest relative error of a way's output against torch's."""
    build: Callable[[str], int]
    """Every way's cubins into the cache for an arch (no GPU needed)."""


def run(probe: Probe, out: Path) -> int:
    import torch

    from measure import copy_bandwidth

    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    copies = [copy_bandwidth(torch) / 1e9]
    rows: list[dict[str, Any]] = []
    with ClockSampler() as sampler, torch.cuda.stream(stream):
        for case in probe.cases():
            a = bench_kernels._inputs(case, torch)
            reference = bench_kernels._torch_calls(case, a, torch)["torch"]().float()
            calls, held = {}, []
            for name, way in probe.ways(case).items():
                out_tensor = torch.full_like(a["x"], math.nan)
                prepared = way(out_tensor, a)
                prepared.enqueue()
                stream.synchronize()
                error = ((out_tensor.float() - reference).abs().max() / reference.abs().max()).item()
                if not error < probe.tolerance:
                    raise RuntimeError(f"{case.name} {name}: relative error {error:.3g}")
                calls[name] = prepared.enqueue
                held.append(prepared)
            baseline = probe.baseline(list(calls))
            measured = METHOD.compare(calls, baseline, st.current_backend().default_stream, sampler=sampler)
            for prepared in held:
                prepared.release()
            for name in calls:
                seconds = measured.summary(name)["burst_s"]
                rows.append(dict(case=case.name, way=name, burst_ms=seconds * 1e3, gbps=case.work / seconds / 1e9,
                                 vs_baseline=measured.ratio(name, baseline),
                                 vs={other: measured.ratio(name, other) for other in calls if other != name}))
            print(case.name, "; ".join(f"{r['way']} {r['gbps']:.0f} GB/s ({r['vs_baseline']:.3f}x)"
                                       for r in rows[-len(calls):]), flush=True)
    copies.append(copy_bandwidth(torch) / 1e9)
    for r in rows:
        r["of_copy"] = r["gbps"] / max(copies)
    header = (f"# {probe.title}: {torch.cuda.get_device_name()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
              f"\n\nCopy bandwidth (start / end): {copies[0]:.0f} / {copies[1]:.0f} GB/s")
    lines = [header, "", "| case | way | GB/s (burst, L2 flushed) | of the copy | vs the baseline |",
             "|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {r['way']} | {r['gbps']:.0f} | {r['of_copy']:.3f} | {r['vs_baseline']:.3f} |"
              for r in rows]
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{probe.stem}.md").write_text("\n".join(lines) + "\n")
    (out / f"{probe.stem}.json").write_text(json.dumps(dict(header=header, copy_gbps=copies, rows=rows,
                                                            clocks=sampler.samples), indent=1))
    return 0


def main(probe: Probe, doc: str | None, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help=f"the folder for {probe.stem}.md and {probe.stem}.json")
    parser.add_argument("--build", metavar="ARCH", help="compile every way's cubins for ARCH here (no GPU needed)")
    args = parser.parse_args(argv)
    if args.build:
        return probe.build(args.build)
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print(f"{Path(sys.argv[0]).name} times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    return run(probe, args.out)
