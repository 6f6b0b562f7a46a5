"""GEMM under Nsight Compute: each implementation of bench/gemm.py's candidates, and cuBLAS's, once.

    # on the GPU (each launch replayed by ncu, the clocks left alone, L2 flushed before each pass):
    ncu --clock-control none --profile-from-start off --section SpeedOfLight --section LaunchStats \\
        --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \\
        --section MemoryWorkloadAnalysis --section SchedulerStats --metrics dram__bytes_read.sum,lts__t_bytes.sum \\
        --export gemm-ncu \\
        python3 -P bench/gemm_profile.py --order order.json
    ncu --import gemm-ncu.ncu-rep --csv --page raw > raw.csv
    # here, no GPU: one table a problem (markdown), each kernel beside the implementation it belongs to
    .venv/bin/python bench/gemm_profile.py --table raw.csv --order order.json

The problems and configs are ``bench/gemm.py``'s ``--only candidates`` (issue 30's missed
targets), with ``matmul()`` (``scaled_mm()``) as planned and the peer (``torch.matmul``,
``torch._scaled_mm``).  Each implementation is prepared and run ``WARM`` times outside the
profiled range, then once inside it (``cudaProfilerStart`` / ``Stop``), in the order written to
``--order``: the implementation, its problem and how many kernels it launches (split columns:
three; the peer: the kernels ncu saw in its slot), so ``--table`` can name each kernel's owner.

The table: duration; SM and tensor-pipe throughput (% of peak); achieved occupancy; waves per SM;
grid; registers; shared memory; DRAM and L2 throughput (% of peak), bytes read from DRAM and
moved through L2; L2 hit rate; the clock during the kernel; the three largest warp stall reasons
(warps stalled on each, per instruction issued; "selected", always 1, left out).  ncu's figures
are single launches at the clock the card runs, from a flushed L2 (not the method's steady state):
what differs between two kernels, not their ratio.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent))  # gemm and method (python -P leaves the folder out)

WARM = 3
"""Untimed runs of each implementation before the profiled one (its cubins loaded, its caches set)."""
PEER = "peer"
METRICS: dict[str, tuple[tuple[str, ...], float]] = {
    "µs": (("gpu__time_duration.sum",), 1e-3),
    "SM %": (("sm__throughput.avg.pct_of_peak_sustained_elapsed",), 1),
    "tensor %": (("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",), 1),
    "occupancy %": (("sm__warps_active.avg.pct_of_peak_sustained_active",), 1),
    "waves / SM": (("launch__waves_per_multiprocessor",), 1),
    "grid": (("launch__grid_size",), 1),
    "regs": (("launch__registers_per_thread",), 1),
    "smem KB": (("launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic"), 1e-3),
    "DRAM %": (("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",), 1),
    "DRAM read MB": (("dram__bytes_read.sum",), 1e-6),
    "L2 %": (("lts__throughput.avg.pct_of_peak_sustained_elapsed",), 1),
    "L2 MB": (("lts__t_bytes.sum",), 1e-6),
    "L2 hit %": (("lts__t_sector_hit_rate.pct",), 1),
    "MHz": (("gpc__cycles_elapsed.avg.per_second",), 1e-6),
}
"""Column -> (ncu metrics, summed; factor to the column's unit from the base unit: ns, bytes, Hz).
The sections collect them all but ``dram__bytes_read.sum`` and ``lts__t_bytes.sum`` (``--metrics``);
``tensor %`` is the tensor pipe's active cycles over all SMs' elapsed ones (warpgroup MMA
included), ``MHz`` the GPC clock during the kernel."""
STALL = re.compile(r"^smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio$")
UNIT_SCALE = {"ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6, "byte": 1,
              "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9,
              "cycle/nsecond": 1e9, "cycle/usecond": 1e6, "cycle/second": 1}
"""ncu's units (the raw page's second row, lower-cased, less ``/block`` or ``/thread``) in the base
unit ``METRICS``' factors take."""


def profile(order_path: Path) -> None:
    """On the GPU, under ncu: every implementation of the candidates warmed, then each once inside
    the profiled range; the order (problem, implementation, kernels launched) to ``order_path``."""
    import torch

    import gemm
    import safetile as st

    stream = st.current_backend().default_stream
    torch_stream = torch.cuda.ExternalStream(int(stream.handle))
    found = gemm.problems(False, "candidates")
    labels = frozenset(problem[4] for problem in found)
    gemm.build(None, "candidates", labels=labels)  # a missing cubin stops here, before any launch
    order: list[dict[str, Any]] = []
    for dtype_name, m, n, k, label, configs in found:
        a, b, peer = gemm.operands(dtype_name, m, n, k)
        held = []
        runs: list[tuple[str, int, Any]] = []
        for name, launch in gemm.launches(configs, m, n, k, dtype_name == "fp8", a, b):
            out = torch.empty((m, n), device="cuda", dtype=torch.float16 if dtype_name == "f16" else torch.bfloat16)
            prepared = launch(out)
            held += prepared
            runs.append((name, len(prepared), lambda prepared=prepared: [p.enqueue(stream) for p in prepared]))

        def cublas(peer: Any = peer) -> None:
            with torch.cuda.stream(torch_stream):
                peer()

        runs.append((PEER, 0, cublas))
        for _, _, run in runs:
            for _ in range(WARM):
                run()
        stream.synchronize()
        torch.cuda.synchronize()
        for name, kernels, run in runs:
            torch.cuda.profiler.start()
            run()
            stream.synchronize()
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
            order.append(dict(problem=f"{dtype_name} {label}", impl=name, kernels=kernels))
            print(f"profiled {dtype_name} {label}: {name}", flush=True)
        for prepared in held:
            prepared.release()
        order_path.write_text(json.dumps(order, indent=1))  # after each problem: a crash keeps the rest


def read_raw(path: Path) -> list[dict[str, float | str]]:
    """ncu's ``--page raw --csv``: one dict a kernel, numbers in the base units of ``UNIT_SCALE``."""
    rows = list(csv.reader(path.read_text().splitlines()))
    start = next(i for i, row in enumerate(rows) if row and row[0] == "ID")
    header, units = rows[start], rows[start + 1]
    kernels = []
    for row in rows[start + 2:]:
        if len(row) != len(header):
            continue
        kernel: dict[str, float | str] = {}
        for name, unit, value in zip(header, units, row):
            number = _number(value)
            kernel[name] = value if number is None else number * UNIT_SCALE.get(unit.lower().removesuffix("/block").removesuffix("/thread"), 1)
        kernels.append(kernel)
    return kernels


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def owners(order: list[dict[str, Any]], kernels: list[dict[str, float | str]]
           ) -> list[tuple[str, str, dict[str, float | str]]]:
    """(problem, implementation, kernel) for each profiled kernel in launch order: each of ours
    takes the kernels it launched; the peer (``kernels`` 0 in the order) those up to the next
    problem's first, which is ours (a kernel name with no ``nvjet``/``cutlass``/``sm90_`` prefix)."""
    found, i = [], 0
    for step in order:
        count = step["kernels"]
        if not count:  # the peer: its kernels run to the next of ours
            count = 0
            while i + count < len(kernels) and (count == 0 or _peer_kernel(str(kernels[i + count]["Kernel Name"]))):
                count += 1
        found += [(step["problem"], step["impl"], kernel) for kernel in kernels[i:i + count]]
        i += count
    if i != len(kernels):
        raise ValueError(f"the order names {i} kernels, ncu profiled {len(kernels)}: the order file is not "
                         "this profile's (pass the --order the same run wrote)")
    return found


def _peer_kernel(name: str) -> bool:
    return name.startswith(("nvjet", "cutlass", "sm90_", "void ", "Kernel"))


def table(found: list[tuple[str, str, dict[str, float | str]]],
          metrics: dict[str, tuple[tuple[str, ...], float]] = METRICS) -> str:
    """One markdown table a problem: a row a kernel, ``metrics``' columns (``METRICS``: GEMM's;
    bench/rows_profile.py passes the row kernels') and the top stalls."""
    lines: list[str] = []
    for problem in dict.fromkeys(p for p, _, _ in found):
        lines += [f"**{problem}**", "",
                  f"| implementation | kernel | {' | '.join(metrics)} | top stalls (cycles an issue) |",
                  "|---" * (len(metrics) + 3) + "|"]
        for _, impl, kernel in (row for row in found if row[0] == problem):
            cells = []
            for names, factor in metrics.values():
                values = [kernel.get(metric) for metric in names]
                if not all(isinstance(value, float) for value in values):
                    cells.append("-")
                    continue
                value = sum(values) * factor  # type: ignore[arg-type]
                cells.append(f"{value:.0f}" if value >= 100 or value == int(value) else f"{value:.1f}")
            stalls = sorted(((value, hit.group(1)) for name, value in kernel.items()
                             if (hit := STALL.match(name)) and hit.group(1) != "selected" and isinstance(value, float)),
                            reverse=True)[:3]
            name = str(kernel["Kernel Name"])
            lines.append(f"| {impl} | `{name[:60]}` | " + " | ".join(cells) + " | "
                         + ", ".join(f"{reason} {value:.1f}" for value, reason in stalls) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--order", type=Path, required=True,
                        help="the run's order of implementations (written on the GPU, read by --table)")
    parser.add_argument("--table", type=Path, metavar="RAW_CSV",
                        help="here: the tables of an ncu raw CSV (ncu --import X --csv --page raw)")
    args = parser.parse_args(argv)
    if args.table:
        if not args.order.exists():
            parser.error(f"--order {args.order}: no such file; pass the order file the profiled run wrote")
        print(table(owners(json.loads(args.order.read_text()), read_raw(args.table))))
        return 0
    profile(args.order)
    return 0


if __name__ == "__main__":
    sys.exit(main())
