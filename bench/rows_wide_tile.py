"""A 16-bit softmax row of 16384 columns: one tile (``softmax_row``) against the looped kernel and Triton, in one run.

    .venv/bin/python bench/rows_wide_tile.py --build sm_90        # here: every variant's cubin
    SAFETILE_CACHE_DIR=build/gpu-cache python bench/rows_wide_tile.py OUT_DIR

The launcher gives 16-bit softmax rows of 16384 columns to the looped
kernel (``SOFTMAX.widest[16]`` is 8192): one tile with TMA stores ran at
0.35-0.86x the looped kernel by its hints in run -s5 (docs/benchmarks.md §5;
8 worker warps at occupancy 2 the best); in run -s6 one tile with direct
stores and 8 warps ran 1.06-1.08x the looped kernel then shipped (softmax;
0.58x for log-softmax), below the looped kernel with direct stores that
ships now.  This times ``softmax_row`` with one
row of 16384 a block, 8 worker warps at occupancy 2 with TMA stores (run -s5's
best) and with ``DIRECT_STORES`` (``safetile/rows.py``: one warpgroup fewer a
block) under no hint and 8 worker warps, against the looped kernel's default
config and Triton's tutorial kernel (``bench/triton_kernels.py``), softmax and
log-softmax, f16 and bf16 (``2^26`` elements an input), by
``bench/method.py``'s method (shuffled rounds, each warmed on itself, L2
flushed before each timed launch: bench/row_probe.py), every output checked
against torch.  OUT_DIR gets ``wide_tile.json`` and ``wide_tile.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels, row_probe (python -P leaves it out)

import safetile as st  # noqa: E402
import kernels as bench_kernels  # noqa: E402
import row_probe  # noqa: E402
import softmax as softmax_example  # noqa: E402

from safetile.rows import DIRECT_STORES, WARPS_8_OCCUPANCY_2, hint_options, sm_90  # noqa: E402

WIDTH = 16384
ONE_TILE_OPTIONS: dict[str, dict[str, Any]] = {
    "8 warps, occupancy 2": dict(optimization_hints=sm_90(**WARPS_8_OCCUPANCY_2)),
    "no hint, direct stores": dict(optimization_hints=sm_90(), store_hints=sm_90(**DIRECT_STORES)),
    "8 warps, direct stores": dict(optimization_hints=sm_90(num_worker_warps_per_cta=8),
                                   store_hints=sm_90(**DIRECT_STORES)),
}
"""The one-tile ways: kernel options by name (on sm_90: 80, 158 and 80 registers, none spills)."""
TRITON = "triton"


def cases() -> list[bench_kernels.Case]:
    return [c for c in bench_kernels.cases(quick=False) if c.workload in ("softmax", "log_softmax")
            and c.dtype in ("f16", "bf16") and c.shape[1] == WIDTH]


def impls(case: bench_kernels.Case) -> dict[str, tuple[Any, tuple[int, int], dict[str, Any]]]:
    """Name -> (kernel with its hints, the output's tile, extra launch arguments)."""
    looped = softmax_example.LAUNCHER.table.default(WIDTH, getattr(st, case.dtype))
    assert softmax_example.LAUNCHER.table.is_looped(WIDTH, getattr(st, case.dtype))
    found = {f"one tile, {name}": (softmax_example.softmax_row.with_options(**options), (1, WIDTH), {})
             for name, options in ONE_TILE_OPTIONS.items()}
    found[f"looped (the default: {st.Config(**looped).text})"] = (
        softmax_example.softmax.with_options(**hint_options(looped)), (looped["BM"], looped["BN"]),
        dict(grid=(case.shape[0],)))
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


def ways(case: bench_kernels.Case) -> dict[str, row_probe.Way]:
    t = st.as_tensor

    def way(kernel: Any, tile: tuple[int, int], extra: dict[str, Any]) -> row_probe.Way:
        def launch(out: Any, a: dict[str, Any]) -> Any:
            return kernel(t(out).partition(tile), t(a["x"]), LOG=int(case.workload == "log_softmax"), **extra).prepare()
        return launch

    return {name: way(*impl) for name, impl in impls(case).items()} | {TRITON: triton_way(case)}


class _Enqueued:
    """A peer's call as the probe times a way (``enqueue``; nothing held to ``release``)."""

    def __init__(self, call: Any) -> None:
        self.enqueue = call

    def release(self) -> None:
        pass


def triton_way(case: bench_kernels.Case) -> row_probe.Way:
    """Triton's tutorial kernel for the case (``bench/triton_kernels.py``)."""
    import triton_kernels

    kernel = getattr(triton_kernels, case.workload)
    return lambda out, a: _Enqueued(lambda: kernel(out, a["x"]))


PROBE = row_probe.Probe(
    stem="wide_tile", title=f"16-bit softmax at {WIDTH} columns, one tile or looped", cases=cases, ways=ways,
    baseline=lambda names: next(n for n in names if n.startswith("looped")), tolerance=4e-2, build=build)


if __name__ == "__main__":
    sys.exit(row_probe.main(PROBE, __doc__))
