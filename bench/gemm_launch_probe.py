"""Each launch of a multi-launch GEMM timed back to back, with CUDA events between the launches.

    SAFETILE_CACHE_DIR=build/gpu-cache python3 -P bench/gemm_launch_probe.py   # on the GPU

Qwen3-4B's down projection at 1024 tokens: split columns of 64x256 tiles (C=2, S=4: three launches)
beside ``matmul()``'s persistent 128x256 grid, 20 rounds after a spin, each the median: each
launch's microseconds, the whole, the gap to the next round, and the host's time to enqueue one
round (prepared launches).  The split config must be one of ``--only candidates``' (its kernels
are ``bench/gemm.py``'s).  Session 18 (docs/benchmarks.md §4): ncu timed the three kernels
alone at 89.6 µs in all, the method at 122 µs; this says what they take in sequence."""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent))  # gemm (python -P leaves the folder out)
import torch  # noqa: E402

import gemm  # noqa: E402
import safetile as st  # noqa: E402


def main() -> int:
    stream = st.current_backend().default_stream
    torch_stream = torch.cuda.ExternalStream(int(stream.handle))
    m, n, k = 1024, 2560, 9728
    a, b, _ = gemm.operands("bf16", m, n, k)
    for name, launch in gemm.launches([gemm.Config(64, 256, 64, splits=4, columns=2)], m, n, k, False, a, b):
        out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
        prepared = launch(out)
        for _ in range(10):
            for p in prepared:
                p.enqueue(stream)
        stream.synchronize()
        rows, host = [], []
        with torch.cuda.stream(torch_stream):
            torch.cuda._sleep(2_000_000)
        for _ in range(20):
            row = [stream.record(timing=True)]
            t = time.perf_counter()
            for p in prepared:
                p.enqueue(stream)
                row.append(stream.record(timing=True))
            host.append(time.perf_counter() - t)
            rows.append(row)
        stream.synchronize()
        each = [statistics.median(r[i].elapsed_ms(r[i + 1]) * 1e3 for r in rows) for i in range(len(prepared))]
        whole = statistics.median(r[0].elapsed_ms(r[-1]) * 1e3 for r in rows)
        between = statistics.median(rows[i][-1].elapsed_ms(rows[i + 1][0]) * 1e3 for i in range(len(rows) - 1))
        print(name, json.dumps(dict(kernels_us=each, whole_us=whole, gap_to_next_us=between,
                                    host_enqueue_us=statistics.median(host) * 1e6)), flush=True)
        for p in prepared:
            p.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
