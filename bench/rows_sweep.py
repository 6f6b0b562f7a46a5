"""The row kernels' spill survey: a grid of configs per width, each compiled here, its registers and spill read.

    .venv/bin/python bench/rows_sweep.py [--build sm_90] [--jobs N]   # no GPU needed

A config is a kernel of ``examples/{softmax,rms_norm,layer_norm}.py`` (the
one-tile ``*_row`` or the looped one), its tile (rows per block x columns)
and its sm_90 hints (``occupancy``, ``num_worker_warps_per_cta``, a load
``latency``).  Each is compiled for every width of ``bench/kernels.py``
it serves (a looped kernel's variant does not depend on the width), its
registers, stack and shared memory read from the cubin
(``backend/resources.py``) and printed as a markdown table;
``rows-sweep-plan.json`` in the cache folder lists the configs that do not
spill.  The launchers' candidates (the tables of ``safetile/rows.py``) were
drawn from those; on the GPU the launchers' own
``st.autotune`` times them (``bench/kernels.py``: docs/benchmarks.md §5).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels (python -P leaves it out)

import safetile as st  # noqa: E402
import kernels as bench_kernels  # noqa: E402
import layer_norm as layer_norm_example  # noqa: E402
import rms_norm as rms_norm_example  # noqa: E402
import softmax as softmax_example  # noqa: E402

from safetile.backend.cache import default_cache_dir  # noqa: E402
from safetile.backend.resources import kernel_resources  # noqa: E402
from safetile.driver import compile_variant  # noqa: E402
from safetile.driver.aot import compile_in_parallel  # noqa: E402
from safetile.rows import row_tile  # noqa: E402
from safetile.runtime.launch import compile_options  # noqa: E402

MODULES = {"softmax": softmax_example, "rms_norm": rms_norm_example, "layer_norm": layer_norm_example}
WORKLOADS = ("softmax", "rms_norm", "layer_norm")
"""log-softmax is softmax's kernel with ``LOG=1``: it takes softmax's choice; bf16 takes f16's."""
DTYPES = ("f16", "f32")
PLAN = "rows-sweep-plan.json"
HINTS: dict[str, dict[str, int]] = {
    "none": {}, "occ2": {"occupancy": 2}, "occ3": {"occupancy": 3}, "occ4": {"occupancy": 4},
    "occ6": {"occupancy": 6}, "occ8": {"occupancy": 8}, "warps8": {"num_worker_warps_per_cta": 8},
}


@dataclass(frozen=True)
class Config:
    """One config of one kernel: ``looped`` or the one-tile kernel, its tile, its hints."""

    workload: str
    dtype: str
    looped: bool
    bm: int
    bn: int
    hint: str
    latency: int = 0

    @property
    def name(self) -> str:
        kernel = self.workload if self.looped else f"{self.workload}_row"
        return f"{kernel} {self.bm}x{self.bn} {self.hint}" + (f" latency {self.latency}" if self.latency else "")

    def kernel(self) -> Any:
        module = MODULES[self.workload]
        base = getattr(module, self.workload if self.looped else f"{self.workload}_row")
        options: dict[str, Any] = {"optimization_hints": {"sm_90": HINTS[self.hint]}}
        if self.latency:
            options["load_hints"] = {"sm_90": {"latency": self.latency}}
        return base.with_options(**options)


def configs(workload: str, dtype: str, width: int) -> list[Config]:
    """The configs tried at ``width``.  Where a row fits one tile (16-bit: every such width; f32:
    softmax at 1024 columns, the only f32 one-tile case below 0.99 of the copy), the one-tile
    kernel with rows per block from the shipped count down to a quarter of it and up to 4x (at
    most 16384 elements a block), at occupancy 4, 6 or 8 (the last session found 8 warps,
    occupancy 2 and no hint slower); for 16-bit rows of 16384 columns also one tile with no
    hint, 8 warps or occupancy 2.  Wider rows: the looped kernel with column tiles of 2048, 4096
    and 8192, no hint or occupancy 2 or 3, with and without a load latency of 4 (the shared-memory
    pipeline of its column loop)."""
    module = MODULES[workload]
    tile = row_tile(width)
    found = []
    if tile <= 8192:
        if dtype == "f32" and (workload, width) != ("softmax", 1024):
            return []
        shipped = module.LAUNCHER.table.default(width, getattr(st, dtype))["BM"]
        for bm in sorted({max(1, shipped // 4), max(1, shipped // 2), shipped, 2 * shipped, 4 * shipped}):
            if bm * tile <= 16384:
                found += [Config(workload, dtype, False, bm, tile, hint) for hint in ("occ4", "occ6", "occ8")]
        return found
    if tile == 16384 and dtype == "f16":
        found += [Config(workload, dtype, False, 1, tile, hint) for hint in ("none", "warps8", "occ2")]
    for bn in (2048, 4096, 8192):
        for hint in ("none", "occ2", "occ3"):
            for latency in (0, 4):
                found.append(Config(workload, dtype, True, 1, bn, hint, latency))
    return found


def cases() -> list[bench_kernels.Case]:
    return [c for c in bench_kernels.cases(quick=False) if c.workload in WORKLOADS and c.dtype in DTYPES]


def _spec(case: bench_kernels.Case, config: Config, rows: int = 16) -> dict[str, Any]:
    dtype = getattr(st, case.dtype)
    cols = case.shape[1]
    matrix = bench_kernels._matrix
    spec: dict[str, Any] = dict(z=matrix(dtype, (rows, cols), (config.bm, config.bn)), x=matrix(dtype, (rows, cols)))
    if case.workload != "softmax":
        spec["w"] = matrix(dtype, (cols,))
    if case.workload == "layer_norm":
        spec["b"] = matrix(dtype, (cols,))
    values = dict(E=dtype, BM=config.bm, BN=config.bn)
    return spec | values


def build(arch: str, jobs: int | None) -> None:
    """Every config's cubin for ``arch`` into the cache, its resources printed; the plan written."""
    pairs, where = [], []
    for case in cases():
        for config in configs(case.workload, case.dtype, case.shape[1]):
            kernel = config.kernel()
            pairs.append((kernel, kernel.specialize(**_spec(case, config))))
            where.append((case, config))
    started = time.perf_counter()
    built = compile_in_parallel(pairs, arch, compile_options(), jobs)
    print(f"{built} tileiras runs for {len(pairs)} variants in {time.perf_counter() - started:.0f} s", flush=True)
    plan: list[dict[str, Any]] = []
    print("| case | config | registers | spill (stack bytes) | shared memory (bytes) |\n|---|---|---|---|---|")
    for (kernel, variant), (case, config) in zip(pairs, where):
        try:
            compiled = compile_variant(kernel, variant, arch, compile_options())
        except Exception as err:  # a config that does not compile is left out, said
            print(f"| {case.name} | {config.name} | does not compile: {str(err).splitlines()[0]} | | |")
            continue
        assert compiled.cubin is not None
        usage = kernel_resources(compiled.cubin.cubin, compiled.symbol)
        print(f"| {case.name} | {config.name} | {usage.registers} | {usage.spill_bytes} | {usage.shared_bytes} |")
        if not usage.spill_bytes:
            plan.append(dict(case=case.name, registers=usage.registers, shared=usage.shared_bytes, **asdict(config)))
    (default_cache_dir() / PLAN).write_text(json.dumps(plan, indent=1))
    print(f"{len(plan)} of {len(pairs)} configs do not spill: {default_cache_dir() / PLAN}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", metavar="ARCH", default="sm_90", help="the arch to compile for (default sm_90)")
    parser.add_argument("--jobs", type=int, help="tileiras processes at a time (default: one per core)")
    args = parser.parse_args(argv)
    build(args.build, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
