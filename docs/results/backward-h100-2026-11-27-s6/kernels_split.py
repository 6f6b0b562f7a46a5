"""Each attention backward kernel op alone at bench/backward.py's attention shapes, the shipped tiles
(CUDA events around one call after a 2M-cycle spin, median of 20 after 10 warm): how the backward's
time splits (run-a/kernels.log, run-b/kernels.log).  Run on the GPU machine with the cubin cache as
bench/backward.py is: ``python3 -P kernels_split.py OUT_DIR`` (writes OUT_DIR/kernels.json)."""
import json, os, sys
import torch
import torch.nn.functional as F
import safetile as st
import safetile.nn as snn
out = {}
st_stream = st.current_backend().default_stream
with torch.cuda.stream(torch.cuda.ExternalStream(int(st_stream.handle))):
    for batch, heads, kv, seq, d, causal in [(4, 16, 8, 2048, 64, False), (4, 16, 8, 2048, 64, True), (4, 16, 16, 2048, 128, True), (4, 16, 16, 2048, 128, False)]:
        q = torch.randn(batch * heads, seq, d, dtype=torch.bfloat16, device="cuda")
        k, v = (torch.randn(batch * kv, seq, d, dtype=torch.bfloat16, device="cuda") for _ in range(2))
        o, lse = snn._attention(q, k, v, causal, d ** -0.5)
        do = torch.randn_like(o)
        dq, delta = snn._attention_backward_dq(q, k, v, o, do, lse, causal, d ** -0.5)
        calls = {"forward": lambda: snn._attention(q, k, v, causal, d ** -0.5),
                 "dq (+delta)": lambda: snn._attention_backward_dq(q, k, v, o, do, lse, causal, d ** -0.5),
                 "dkdv": lambda: snn._attention_backward_dkdv(q, k, v, do, lse, delta, causal, d ** -0.5)}
        row = {}
        for name, call in calls.items():
            for _ in range(10): call()
            times = []
            for _ in range(20):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                torch.cuda._sleep(2_000_000)
                a.record(); call(); b.record(); b.synchronize()
                times.append(a.elapsed_time(b))
            row[name] = sorted(times)[10]
        out[f"d{d} causal={causal}"] = row
        print(f"d{d} causal={causal}: " + ", ".join(f"{n} {t:.3f} ms" for n, t in row.items()), flush=True)
json.dump(out, open(os.path.join(sys.argv[1], "kernels.json"), "w"), indent=1)
