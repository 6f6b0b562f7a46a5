"""Why peer-fused's sums differ from peer's in their last bits (run -s9b): o_proj's and down's
partial sums at Qwen3-14B TP=2 (SHARD_TILES, one rank's shapes) from ``gemv_residual`` as the
decoder launches it (occupancy hint 3) against ``gemv_peer_sum`` (``tp.fused_kernel``, occupancy
tileiras's) with the other rank's words already in the inbox and all zero (so its sums are its own
``residual + w @ x`` plus +0.0), and against ``gemv_residual`` with the fused kernel's hints
(occupancy tileiras's).  Prints, per projection, how many of the 5,120 sums differ bitwise.

    SAFETILE_AOT_ARCHS=sm_90 SAFETILE_CACHE_DIR=... python bits_probe.py      # here: compiles
    SAFETILE_CACHE_DIR=... python -P bits_probe.py OUT.json                    # on a GPU
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples"))

import safetile as st  # noqa: E402
from qwen3 import kernels as K  # noqa: E402
from qwen3.model import hinted  # noqa: E402
from qwen3.tp import SHARD_TILES, fused_kernel  # noqa: E402


def main() -> None:
    t = SHARD_TILES
    device = "cuda" if torch.cuda.is_available() else "cpu"
    n = 5120
    out = {"device": torch.cuda.get_device_name() if device == "cuda" else "cpu", "projections": {}}
    for name, k, rows, cols, ways in (
            ("o_proj", 2560, t.o_rows, t.o_cols, t.o_proj), ("down", 8704, t.down_tile, t.cols, t.gemv)):
        g = torch.Generator().manual_seed(1)
        w = (torch.randn(n, k, generator=g) * 0.02).to(torch.bfloat16)
        x = torch.randn(k, generator=g)
        residual = torch.randn(n, generator=g)
        packed = torch.from_numpy(np.ascontiguousarray(K.pack_weight(w.float().numpy(), rows, cols))).to(
            torch.bfloat16).to(device)
        reads = t.reads("o" if name == "o_proj" else "down")
        results = {}
        for way, kernel in (("gemv_residual (decoder's hints)", ways(K.gemv_residual)),
                            ("gemv_residual (fused's hints)", hinted(K.gemv_residual, t.gemv_latency, t.gemv_warps,
                                                                     None))):
            z = st.from_dlpack(torch.zeros(n, device=device))
            done = t.launched(kernel)(z.partition((rows,)), st.from_dlpack(residual.to(device)),
                                      st.from_dlpack(x.to(device)), st.from_dlpack(packed), BK=cols, **reads).sync()
            results[way] = done[0].unpartition().numpy().copy()
        inbox = torch.full((1, n), 1 << 32, dtype=torch.int64, device=device)  # step 1, bits 0: +0.0
        memory = [st.unsafe_pointer(st.from_dlpack(v)) for v in (
            inbox, torch.zeros(1, n, dtype=torch.int64, device=device), torch.zeros(2, dtype=torch.int32,
                                                                                    device=device))]
        z = st.from_dlpack(torch.zeros(n, device=device))
        steps = st.from_dlpack(torch.zeros(1, dtype=torch.int32, device=device))
        done = t.launched(fused_kernel(t))(z.partition((rows,)), st.from_dlpack(residual.to(device)),
                                           st.from_dlpack(x.to(device)), st.from_dlpack(packed), steps, *memory, 0,
                                           N=n, BK=cols, **reads).sync()
        results["gemv_peer_sum"] = done[0].unpartition().numpy().copy()
        base = results["gemv_residual (decoder's hints)"].view(np.int32)
        out["projections"][name] = {
            way: {"differ": int((v.view(np.int32) != base).sum()),
                  "max_ulps": int(np.abs(v.view(np.int32).astype(np.int64) - base).max())}
            for way, v in results.items()}
        out["projections"][name]["fused vs gemv_residual (fused's hints) differ"] = int(
            (results["gemv_peer_sum"].view(np.int32) != results["gemv_residual (fused's hints)"].view(np.int32)).sum())
        print(name, json.dumps(out["projections"][name]), flush=True)
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
