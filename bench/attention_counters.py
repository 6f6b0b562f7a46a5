"""Attention forward under Nsight Compute: ours and cuDNN's kernel at the cases furthest from cuDNN.

    .venv/bin/python bench/attention_counters.py --build sm_90        # here: the profiled plans' cubins
    SAFETILE_CACHE_DIR=... ncu --clock-control none --nvtx --nvtx-include "counters/" \\
        --section SpeedOfLight --section Occupancy ... --export OUT/att python -P bench/attention_counters.py

The launches to profile run once each inside an NVTX range ``counters`` (ncu's ``--nvtx-include
"counters/"`` profiles those alone), after warm launches outside it: at each of ``CASES`` (32 heads,
f16) every plan of ``PROFILED`` for the case and torch SDPA with cuDNN forced.  Each launch's name is
its NVTX range's inner one (``counters/d128 c0 S1024/cuDNN``), so the report says which is which.
Not a timing: ncu replays each kernel.  A missing cubin stops the script at the first launch.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels (python -P leaves it out)

import safetile as st  # noqa: E402
from flash_attention import Plan, attention_plan, launch_plan, planned_kernel  # noqa: E402
from kernels import HEADS, _matrix  # noqa: E402

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


def run(warm: int) -> None:
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    t = st.as_tensor
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
            calls["cuDNN"] = cudnn
            for call in calls.values():
                for _ in range(warm):
                    call()
            stream.synchronize()
            case = f"d{d} c{causal} S{seq}"
            torch.cuda.nvtx.range_push("counters")
            for label, call in calls.items():
                torch.cuda.nvtx.range_push(f"{case}/{label}")
                call()
                torch.cuda.nvtx.range_pop()
            torch.cuda.nvtx.range_pop()
            stream.synchronize()
            print(f"{case}: profiled {', '.join(calls)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", metavar="ARCH", help="compile the profiled plans for ARCH here (no GPU)")
    parser.add_argument("--warm", type=int, default=3, help="launches of each before the profiled one")
    args = parser.parse_args()
    if args.build:
        build(args.build)
    else:
        run(args.warm)


if __name__ == "__main__":
    main()
