#!/bin/bash
# helper-A's first GPU call (session 17): attention forward candidates at the training step's shape and
# the d128 / step-shaped backward candidates (bench/backward.py), then the training step in default mode
# with --profile and with CUDA graphs (bench/train.py).  Cubins: build/gpu-cache-A, built on the
# safetile of .gpu/site-A (.gpu/build-A.py).  Everything lands in $OUT/results.tgz.
export PYTHONPATH=$PWD/.gpu/site-A SAFETILE_CACHE_DIR=build/gpu-cache-A PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/bwd $R/default $R/ro
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $R/gpu.txt
cat $R/gpu.txt
pack() { cd $OUT && tar czf results.tgz r && rm -rf r; }
# fail fast: the step's attention forward + backward and a d128 backward from the cache
python3 -P - <<'PY' || { pack; exit 3; }
import torch, safetile.nn as snn
for (h, kv, s, d, c) in ((16, 8, 1024, 64, True), (16, 16, 2048, 128, False)):
    q = torch.randn(4, h, s, d, dtype=torch.bfloat16, device="cuda", requires_grad=True)
    k, v = (torch.randn(4, kv, s, d, dtype=torch.bfloat16, device="cuda", requires_grad=True) for _ in range(2))
    o = snn.attention(q, k, v, causal=c)
    g = torch.autograd.grad(o, (q, k, v), torch.randn_like(o))
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=c, enable_gqa=True)
    print("smoke ok", d, c, float((o - ref).abs().max()))
PY
s=$(date +%s)
timeout 100 python3 -P bench/backward.py --out $R/bwd --only attention_forward,attention --cases d64_causal,d128 > $R/bwd.log 2>&1
grep -v Warning $R/bwd.log | tail -40 | cut -c1-200
echo "backward.py: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 90 python3 -P bench/train.py --out $R/default --steps 300 --profile > $R/default.log 2>&1
head -5 $R/default.log | cut -c1-200
python3 - $R/default/train.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1])).get("profile", {})
for label in ("safetile", "torch.compile"):
    q = p.get(label, {})
    print(label, {k: q.get(k) for k in ("gpu_ms_per_step_host_ahead", "host_ms_per_step", "gpu_busy_ms_per_step")})
    for k, v in list(q.get("gpu_kernels_us_per_step", {}).items())[:30]:
        print(f"  {v:8.1f} {k[:90]}")
PY
echo "train.py default: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 60 python3 -P bench/train.py --out $R/ro --steps 300 --mode reduce-overhead > $R/ro.log 2>&1; head -6 $R/ro.log | cut -c1-200
echo "train.py reduce-overhead: $(( $(date +%s) - s )) s"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/gpu.txt
pack; ls -la $OUT
