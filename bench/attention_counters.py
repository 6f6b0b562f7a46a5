"""Attention forward under Nsight Compute: ours and cuDNN's kernel at the cases furthest from cuDNN.

    .venv/bin/python bench/attention_counters.py --build sm_90        # here: the profiled plans' cubins
    SAFETILE_CACHE_DIR=... ncu --clock-control none --profile-from-start off --nvtx \\
        --section SpeedOfLight --section Occupancy ... --export att \\
        python -P bench/attention_counters.py --order order.json       # on the GPU
    ncu --import att.ncu-rep --csv --page raw > raw.csv
    .venv/bin/python bench/attention_counters.py --table raw.csv --order order.json   # here: the tables
    SAFETILE_CACHE_DIR=... python -P bench/attention_counters.py --sass REGEX OUT   # the cached kernels' SASS

The launches to profile run once each between ``cudaProfilerStart`` and ``Stop`` (ncu's
``--profile-from-start off`` profiles those alone), after warm launches outside: at each of
``CASES`` (32 heads, f16) every plan ``profiled`` gives the case, then torch SDPA with cuDNN forced,
in the order the script prints; each in an NVTX range named for it (``d128 c0 S1024 cuDNN``).
Not a timing: ncu replays each kernel.  A missing cubin stops the script at the first launch.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels (python -P leaves it out)

import safetile as st  # noqa: E402
from flash_attention import Plan, attention_plan, launch_plan, planned_kernel  # noqa: E402
from gemm_profile import METRICS, owners, read_raw, table  # noqa: E402
from kernels import HEADS, _matrix  # noqa: E402

PEER = "cuDNN"
COUNTERS = METRICS | {"issue %": (("smsp__issue_active.avg.pct_of_peak_sustained_active",), 1),
                      "warps / scheduler": (("smsp__warps_active.avg.per_cycle_active",), 1),
                      "eligible / scheduler": (("smsp__warps_eligible.avg.per_cycle_active",), 1)}
"""``bench/gemm_profile.py``'s columns and the schedulers' issue-slot use (% of cycles an
instruction issued), active and eligible warps a scheduler."""
CASES = ((128, 0, 1024), (128, 1, 4096))
"""``(d, causal, S)``: d128 unmasked at S = 1024 (0.84 of cuDNN in session 17) and d128 causal at
4096 (0.90)."""
BATCH_HEADS = 4 * HEADS


def profiled(d: int, causal: int, seq: int) -> list[tuple[str, Plan]]:
    """The shipped plan for the case, it persistent, and causal it reversed (persistent too)."""
    shipped = attention_plan(d, bool(causal), seq)
    plans = [("shipped", shipped), ("persistent", shipped._replace(persistent=True))]
    if causal:
        plans += [("reversed", shipped._replace(reverse=True)),
                  ("persistent reversed", shipped._replace(reverse=True, persistent=True))]
    return plans


def build(arch: str) -> None:
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    for d, causal, seq in CASES:
        q = _matrix(st.f16, (BATCH_HEADS, seq, d))
        for label, plan in profiled(d, causal, seq):
            spec = dict(o=_matrix(st.f16, (BATCH_HEADS, seq * d), (1, plan.bm * d)), q=q, k=q, v=q, CAUSAL=causal,
                        GROUP=1, **plan.generics())
            (done,) = planned_kernel(plan).warm_up([spec], arch=arch)
            print(f"d{d} c{causal} S{seq} {label}: {done.symbol}", flush=True)


def run(warm: int, order_path: Path) -> None:
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    t = st.as_tensor
    order: list[dict[str, Any]] = []
    with torch.cuda.stream(stream):
        for d, causal, seq in CASES:
            shape = (BATCH_HEADS, seq, d)
            gen = torch.Generator(device="cuda").manual_seed(0)
            q, k, v = (torch.randn(*shape, device="cuda", dtype=torch.float16, generator=gen) for _ in range(3))
            q4, k4, v4 = (x.view(BATCH_HEADS // HEADS, HEADS, seq, d) for x in (q, k, v))

            def cudnn() -> Any:
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    return torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=bool(causal))

            calls = {label: launch_plan(plan, t(torch.empty_like(q).view(BATCH_HEADS, seq * d)), t(q), t(k), t(v),
                                        1 / math.sqrt(d), causal=bool(causal)).prepare().enqueue
                     for label, plan in profiled(d, causal, seq)}
            calls[PEER] = cudnn
            for call in calls.values():
                for _ in range(warm):
                    call()
            stream.synchronize()
            case = f"d{d} c{causal} S{seq}"
            for label, call in calls.items():
                torch.cuda.profiler.start()
                torch.cuda.nvtx.range_push(f"{case} {label}")
                call()
                torch.cuda.nvtx.range_pop()
                stream.synchronize()
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
                # ours: one launch; cuDNN: the kernels ncu saw up to the next case's first (ours)
                order.append(dict(problem=case, impl=label, kernels=0 if label == PEER else 1))
            order_path.write_text(json.dumps(order, indent=1))
            print(f"{case}: profiled, in this order: {', '.join(calls)}", flush=True)


def sass(pattern: str, out: Path) -> None:
    """The sm_90 SASS (``cuobjdump -sass``, where the GPU's toolkit is) of every cubin in the cache
    (``SAFETILE_CACHE_DIR``) whose kernel name matches ``pattern``, into ``out`` with a header each
    (the build key and kernel: a plan's hints are not in the name, its SASS tells them apart)."""
    import re
    import subprocess

    found = []
    for record in sorted(Path(os.environ["SAFETILE_CACHE_DIR"]).glob("cubin-v1/*/*/*.json")):
        meta = json.loads(record.read_text())
        if any(re.fullmatch(pattern, k) for k in meta["kernels"]):
            listing = subprocess.run(["cuobjdump", "-sass", str(record.with_suffix(".cubin"))], capture_output=True,
                                     text=True, check=True).stdout
            found.append(f"## {meta['build_key']} {' '.join(meta['kernels'])}\n{listing}")
    out.write_text("\n".join(found))
    print(f"{len(found)} cubins' SASS into {out}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", metavar="ARCH", help="compile the profiled plans for ARCH here (no GPU)")
    parser.add_argument("--warm", type=int, default=3, help="launches of each before the profiled one")
    parser.add_argument("--sass", nargs=2, metavar=("PATTERN", "OUT"), help="the SASS of the cached kernels "
                        "whose name matches PATTERN (a regular expression) into OUT")
    parser.add_argument("--order", type=Path, default=Path("order.json"),
                        help="the launches' order: written under ncu, read by --table")
    parser.add_argument("--table", type=Path, metavar="RAW_CSV",
                        help="here: a table a case of an ncu raw CSV (ncu --import X --csv --page raw)")
    args = parser.parse_args()
    if args.build:
        build(args.build)
    elif args.sass:
        sass(args.sass[0], Path(args.sass[1]))
    elif args.table:
        print(table(owners(json.loads(args.order.read_text()), read_raw(args.table)), COUNTERS))
    else:
        run(args.warm, args.order)


if __name__ == "__main__":
    main()
