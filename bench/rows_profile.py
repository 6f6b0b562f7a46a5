"""The row kernels' misses under Nsight Compute: ours and Triton's kernel of each case, one launch each.

    .venv/bin/python bench/rows_profile.py --build sm_90          # here: the extra configs' cubins
    ncu --clock-control none --profile-from-start off --section SpeedOfLight --section LaunchStats \\
        --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \\
        --section MemoryWorkloadAnalysis --section SchedulerStats \\
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,$STALLS \\
        --export OUT/rows python bench/rows_profile.py OUT [--cases "softmax f16 1024,..."]  # on the GPU
    # STALLS: smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, comma-separated, for
    # long_scoreboard, short_scoreboard, wait, barrier, lg_throttle, mio_throttle, math_pipe_throttle, not_selected
    ncu --import OUT/rows.ncu-rep --csv --page details > OUT/details.csv
    .venv/bin/python bench/rows_profile.py --summary OUT         # here: OUT/profile.md from the CSV

Why: a ratio says that a row kernel misses its target (docs/benchmarks.md §5), not why; the
hardware counters of our kernel and the peer's side by side do (DRAM throughput of its peak and
bytes moved, achieved occupancy and waves, where warps stall, registers).

``CASES`` names each profiled case (``bench/kernels.py``'s ``Case``) and, beside our launcher's
pick (``launch_row``: the ``st.autotune`` record on disk where ``bench/kernels.py`` ran the case
before in the same cache, else timed here first, under the profiler, which may pick another
config than a run would), the configs of ``safetile/rows.py``'s kernels also profiled.  Every way
of a case runs once outside the profiler's range (Triton's JIT, the cubin load, the tuning) and is
checked against torch; then ``torch.cuda.profiler`` opens the range for
one launch of each way (ncu's ``--profile-from-start off``; its default cache control flushes the
L2 before each replay pass).  A copy kernel (``torch.neg`` over 128 MiB of f32: one read and one
write an element) is profiled last: the ceiling a row kernel's DRAM throughput is read against.
``OUT/profile.json`` lists the profiled launches in order, which ``--summary`` pairs with ncu's
rows.  (A device call brings back at most 8 files from its output folder: archive OUT there.)
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels (python -P leaves it out)

import safetile as st  # noqa: E402
import gemm_profile  # noqa: E402
import kernels as bench_kernels  # noqa: E402

from safetile.rows import DIRECT_LOADS, DIRECT_STORES, hint_options, sm_90  # noqa: E402


@dataclass(frozen=True)
class Profiled:
    """One case and the configs profiled beside the launcher's pick."""

    case: str
    """``bench/kernels.py``'s ``Case.name``, e.g. ``"softmax f16 16384"``."""
    extra: dict[str, dict[str, Any]]
    """A label -> a config of the case's one-tile kernel, launched as it is."""


CASES = (
    # layer_norm 16-bit at 1024: 0.98 of Triton, no reason found by timings; one row a block loaded
    # and stored directly (rms_norm's default: 1.06x the time here in run -s7) beside it
    Profiled("layer_norm f16 1024", {
        "one row, direct": dict(BM=1, BN=1024, optimization_hints=sm_90(), store_hints=sm_90(**DIRECT_STORES),
                                load_hints=sm_90(**DIRECT_LOADS)),
        "4 rows, 8 warps, direct": dict(BM=4, BN=1024, optimization_hints=sm_90(num_worker_warps_per_cta=8),
                                        store_hints=sm_90(**DIRECT_STORES), load_hints=sm_90(**DIRECT_LOADS)),
        # run -s8b2: the 8 rows at occupancy 8 (64 registers) and one row with 8 warps (24), the fewest
        "8 rows, occupancy 8, direct": dict(BM=8, BN=1024, optimization_hints=sm_90(occupancy=8),
                                            store_hints=sm_90(**DIRECT_STORES), load_hints=sm_90(**DIRECT_LOADS)),
        "one row, 8 warps, direct": dict(BM=1, BN=1024, optimization_hints=sm_90(num_worker_warps_per_cta=8),
                                         store_hints=sm_90(**DIRECT_STORES), load_hints=sm_90(**DIRECT_LOADS))}),
    # 16-bit softmax and log-softmax at 1024: level with Triton within 1.5%, the side flipping between runs;
    # run -s8's shipped pick (one row, 23 registers) and one row with 8 warps (20) beside the pick of the run
    Profiled("softmax f16 1024", {
        "one row, direct stores": dict(BM=1, BN=1024, optimization_hints=sm_90(), store_hints=sm_90(**DIRECT_STORES)),
        "one row, 8 warps, direct stores": dict(BM=1, BN=1024, optimization_hints=sm_90(num_worker_warps_per_cta=8),
                                                store_hints=sm_90(**DIRECT_STORES))}),
    Profiled("log_softmax bf16 1024", {}),
    # 16-bit softmax at 16384: the looped kernel reads a row twice; one tile holding the row with
    # tileiras's most worker warps (8) beside it
    Profiled("softmax f16 16384", {"one tile, 8 warps, direct stores": dict(
        BM=1, BN=16384, optimization_hints=sm_90(num_worker_warps_per_cta=8),
        store_hints=sm_90(**DIRECT_STORES))}),
    # wider than 16384, of the copy: 16-bit at 65,536 (the second read partly in L2) and 262,144 (not);
    # f32 log-softmax at 65,536, the widest miss against Triton's one tile
    Profiled("softmax f16 65536", {}),
    Profiled("log_softmax f32 65536", {}),
    Profiled("softmax f16 262144", {}),
)
COUNTED = "rows_profile__counted_gbytes_per_second"
DURATION = "GPU Speed Of Light Throughput: Duration"
COPY_ELEMENTS = 1 << 25
"""f32 elements the copy kernel reads and writes (128 MiB each way: a 16-bit row case's input)."""
METRICS: dict[str, tuple[tuple[str, ...], float]] = {
    "µs": ((DURATION,), 1e-3),
    "GB/s counted": ((COUNTED,), 1),
    "DRAM %": (("GPU Speed Of Light Throughput: DRAM Throughput",), 1),
    "DRAM read MB": (("dram__bytes_read.sum",), 1e-6),
    "DRAM written MB": (("dram__bytes_write.sum",), 1e-6),
    "L2 hit %": (("Memory Workload Analysis: L2 Hit Rate",), 1),
    "regs": (("Launch Statistics: Registers Per Thread",), 1),
    "threads": (("Launch Statistics: Block Size",), 1),
    "grid": (("Launch Statistics: Grid Size",), 1),
    "waves / SM": (("Launch Statistics: Waves Per SM",), 1),
    "occupancy % (theoretical)": (("Occupancy: Theoretical Occupancy",), 1),
    "occupancy % (achieved)": (("Occupancy: Achieved Occupancy",), 1),
    "eligible warps / scheduler": (("Scheduler Statistics: Eligible Warps Per Scheduler",), 1),
    "issue slots busy %": (("Compute Workload Analysis: Issue Slots Busy",), 1),
    "cycles / issue": (("Warp State Statistics: Warp Cycles Per Issued Instruction",), 1),
    "SM MHz": (("GPU Speed Of Light Throughput: SM Frequency",), 1e-6),
}
"""``--summary``'s columns (``gemm_profile.table``'s form: column -> (metrics, summed; factor from the
base unit: ns, bytes, Hz)), keyed as ``read_details`` keys them; ``COUNTED`` is this script's: the
bytes the case moves (``Case.work``, what docs/benchmarks.md's GB/s count) over ncu's duration."""
UNIT_ALIASES = {"ns": "nsecond", "us": "usecond", "ms": "msecond", "s": "second"}
"""The details page's time units in ``gemm_profile.UNIT_SCALE``'s words (the raw page's)."""
OWN_METRICS = "Command line profiler metrics"
"""The details page's section of the metrics asked for by name (``--metrics``): keyed by that name."""


def _case(name: str) -> bench_kernels.Case:
    (case,) = [c for c in bench_kernels.cases(quick=False) if c.name == name]
    return case


def _named(names: list[str] | None) -> list[Profiled]:
    """The ``CASES`` of ``names`` (``None``: all), a name not among them refused."""
    known = {profiled.case: profiled for profiled in CASES}
    unknown = [name for name in names or [] if name not in known]
    if unknown:
        raise SystemExit(f"--cases: {', '.join(unknown)} not among bench/rows_profile.py's CASES ({', '.join(known)})")
    return [known[name] for name in names] if names else list(CASES)


def _one_tile(case: bench_kernels.Case, config: dict[str, Any]) -> Any:
    """The case's one-tile kernel with ``config``'s hints."""
    name = "softmax" if case.workload == "log_softmax" else case.workload
    module = {"softmax": bench_kernels.softmax_example, "rms_norm": bench_kernels.rms_norm_example,
              "layer_norm": bench_kernels.layer_norm_example}[name]
    return module.LAUNCHER.one_tile.with_options(**hint_options(config))


def _extra_launch(case: bench_kernels.Case, config: dict[str, Any], out: Any, a: dict[str, Any]) -> Any:
    """An extra config (``BM``, ``BN`` and hints) of the case's one-tile kernel launched into ``out``, prepared."""
    t = st.as_tensor
    if case.workload in ("softmax", "log_softmax"):
        args, generics = [t(a["x"])], dict(LOG=int(case.workload == "log_softmax"))
    else:
        args = [t(a["x"]), t(a["w"])] + ([t(a["b"])] if case.workload == "layer_norm" else []) + [bench_kernels.EPS]
        generics = {}
    return _one_tile(case, config)(t(out).partition((config["BM"], config["BN"])), *args, **generics).prepare()


def build(arch: str) -> int:
    """The extra configs' cubins into the cache for ``arch`` (16 rows, as the GPU's are divisible by
    16), each one's registers and spill; 1 if one spills.  The launchers' picks are ``bench/kernels.py
    --build``'s."""
    for profiled in CASES:
        case = _case(profiled.case)
        for label, config in profiled.extra.items():
            spec = bench_kernels.launcher_spec(case)
            spec["z"] = bench_kernels._matrix(getattr(st, case.dtype), (16, case.shape[1]),
                                              (config["BM"], config["BN"]))
            (done,) = _one_tile(case, config).warm_up([spec], arch=arch)
            usage = bench_kernels.new_resources(done, set())
            print(f"{case.name} {label}: {done.symbol}: {usage.registers} registers, {usage.spill_bytes} B spilled",
                  flush=True)
            if usage.spill_bytes:
                return 1
    return 0


def run(out: Path, names: list[str] | None = None) -> int:
    """Every way of the ``CASES`` named (``None``: all) once, checked, then one launch of each in the
    profiler's range; ``profile.json``."""
    import torch

    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    launches: list[tuple[dict[str, Any], Callable[[], Any]]] = []
    held: list[Any] = []
    with torch.cuda.stream(stream):
        for profiled in _named(names):
            case = _case(profiled.case)
            a = bench_kernels._inputs(case, torch)
            reference = bench_kernels._torch_calls(case, a, torch)["torch"]()
            ours = bench_kernels._ours(case, a, torch)
            held.append(ours.held)
            impls = [ours]
            for label, config in profiled.extra.items():
                out_tensor = torch.full_like(a["x"], math.nan)
                prepared = _extra_launch(case, config, out_tensor, a)
                held.append(prepared)
                impls.append(bench_kernels.Impl(f"safetile ({label})", prepared.enqueue, out_tensor,
                                                st.Config(**config).text))
            triton_out = torch.full_like(a["x"], math.nan)
            impls.append(bench_kernels.Impl("triton", bench_kernels._triton_call(case, a, triton_out), triton_out))
            for impl in impls:
                impl.call()
                torch.cuda.synchronize()
                error = bench_kernels._check(case, impl, reference, torch)
                launches.append((dict(case=case.name, impl=impl.name, config=impl.config, error=error,
                                      bytes=case.work), impl.call))
                print(f"{case.name} {impl.name} {impl.config}: error {error:.2g}", flush=True)
        src = torch.randn(COPY_ELEMENTS, device="cuda")
        dst = torch.empty_like(src)
        launches.append((dict(case="copy f32 2^25", impl="torch.neg", config="", error=0.0,
                              bytes=2.0 * src.numel() * 4), lambda: torch.neg(src, out=dst)))
        launches[-1][1]()
        torch.cuda.synchronize()
        with torch.cuda.profiler.profile():
            for _, call in launches:
                call()
                torch.cuda.synchronize()
    for prepared in held:
        prepared.release()
    out.mkdir(parents=True, exist_ok=True)
    (out / "profile.json").write_text(json.dumps(dict(device=torch.cuda.get_device_name(),
                                                      launches=[info for info, _ in launches]), indent=1))
    return 0


def read_details(path: Path) -> list[dict[str, float | str]]:
    """ncu's ``--page details --csv``: one dict a kernel (in the order of its ``ID``), the metrics of
    the sections keyed ``"<section>: <metric>"``, those asked for by name (``OWN_METRICS``) by the
    name, numbers in ``gemm_profile.UNIT_SCALE``'s base units; ``"Kernel Name"`` too."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    kernels: dict[str, dict[str, float | str]] = {}
    for row in rows:
        kernel = kernels.setdefault(row["ID"], {"Kernel Name": row["Kernel Name"]})
        if not row["Metric Name"]:
            continue  # a rule's line
        section = row["Section Name"]
        key = row["Metric Name"] if section == OWN_METRICS else f"{section}: {row['Metric Name']}"
        number = gemm_profile._number(row["Metric Value"])
        unit = row["Metric Unit"].lower()
        kernel[key] = row["Metric Value"] if number is None else \
            number * gemm_profile.UNIT_SCALE.get(UNIT_ALIASES.get(unit, unit), 1)
    return [kernels[key] for key in sorted(kernels, key=int)]


def summary(launches: list[dict[str, Any]], kernels: list[dict[str, float | str]]) -> str:
    """``gemm_profile.table`` of the profiled launches (``launches``, from ``profile.json``, paired
    in order with ncu's kernels: one each) under ``METRICS``, one table a case."""
    if len(launches) != len(kernels):
        raise ValueError(f"profile.json lists {len(launches)} launches, ncu's CSV {len(kernels)} kernels: "
                         "pass the CSV of the same run, every launch of its range profiled (no -k, no --launch-count)")
    found = []
    for launch, kernel in zip(launches, kernels):
        duration = kernel.get(DURATION)
        counted = launch["bytes"] / duration if isinstance(duration, float) and duration else None  # bytes a ns
        found.append((launch["case"], f"{launch['impl']} {launch['config']}".strip(),
                      kernel | ({COUNTED: counted} if counted else {})))
    return gemm_profile.table(found, METRICS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, nargs="?", help="the folder for profile.json (and details.csv: --summary)")
    parser.add_argument("--build", metavar="ARCH", help="compile the extra configs for ARCH here (no GPU needed)")
    parser.add_argument("--cases", help="comma-separated case names of CASES to profile (default: all)")
    parser.add_argument("--summary", action="store_true",
                        help="OUT/profile.md from OUT/profile.json and OUT/details.csv")
    args = parser.parse_args(argv)
    if args.build:
        return build(args.build)
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if args.summary:
        launches = json.loads((args.out / "profile.json").read_text())["launches"]
        (args.out / "profile.md").write_text(summary(launches, read_details(args.out / "details.csv")))
        return 0
    if st.current_backend().name != "cuda":
        print("bench/rows_profile.py profiles kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    return run(args.out, args.cases.split(",") if args.cases else None)


if __name__ == "__main__":
    sys.exit(main())
