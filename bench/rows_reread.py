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
itself, L2 flushed before each timed launch: bench/row_probe.py), with the
copy bandwidth of ``bench/measure.py``.  If the second pass hit L2 every way they would run
alike; if it never did, all would sit near 2/3 of the copy.  OUT_DIR gets
``reread.json`` and ``reread.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels, row_probe (python -P leaves it out)

import safetile as st  # noqa: E402
import kernels as bench_kernels  # noqa: E402
import rms_norm as rms_norm_example  # noqa: E402
import row_probe  # noqa: E402
import softmax as softmax_example  # noqa: E402

from safetile.rows import REREAD, hint_options  # noqa: E402

MODULES = {"softmax": softmax_example, "rms_norm": rms_norm_example}
"""layer_norm's looped kernel walks left to right: in two loops its candidates spilled or ran slower
(docs/benchmarks.md §5, run -s5)."""
WIDTHS = (65536, 262144)
DTYPES = ("f16", "f32")
WAYS = {f"REREAD={REREAD}": REREAD, f"REREAD={2 * REREAD}": 2 * REREAD, "REREAD=0": 0}
"""The walks: the shipped one, one that leaves twice as much to re-read, left to right (the ratios
are to it)."""


def cases() -> list[bench_kernels.Case]:
    return [c for c in bench_kernels.cases(quick=False)
            if c.workload in MODULES and c.dtype in DTYPES and c.shape[1] in WIDTHS]


def kernel_and_config(case: bench_kernels.Case) -> tuple[Any, dict[str, Any]]:
    """The looped kernel with the default config's hints, and that config."""
    module = MODULES[case.workload]
    config = module.LAUNCHER.table.default(case.shape[1], getattr(st, case.dtype))
    assert module.LAUNCHER.table.is_looped(case.shape[1], getattr(st, case.dtype)), case.name
    return module.LAUNCHER.looped.with_options(**hint_options(config)), config


def generics(case: bench_kernels.Case, reread: int) -> dict[str, int]:
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


def ways(case: bench_kernels.Case) -> dict[str, row_probe.Way]:
    kernel, config = kernel_and_config(case)
    t = st.as_tensor

    def way(reread: int) -> row_probe.Way:
        def launch(out: Any, a: dict[str, Any]) -> Any:
            args = [t(a["x"])] + ([] if case.workload == "softmax" else [t(a["w"]), bench_kernels.EPS])
            return kernel(t(out).partition((1, config["BN"])), *args, **generics(case, reread),
                          grid=(case.shape[0],)).prepare()
        return launch

    return {f"{name} ({st.Config(**config).text})": way(reread) for name, reread in WAYS.items()}


PROBE = row_probe.Probe(
    stem="reread", title="The looped row kernels' second pass", cases=cases, ways=ways,
    baseline=lambda names: next(n for n in names if n.startswith("REREAD=0 ")), tolerance=2e-2, build=build)


if __name__ == "__main__":
    sys.exit(row_probe.main(PROBE, __doc__))
