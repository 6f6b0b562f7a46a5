#!/bin/bash
# helper-A's second GPU call (session 17): the training step with CUDA graphs twice (bench/train.py
# --mode reduce-overhead, the issue's check; a bench/backward.py run between them, so the second is not
# the machine's first torch.compile), and the attention rows: the shipped tiles (dq at 64 keys at d64
# causal since run 1) and the head-major candidates of the backward kernels.  Cubins: build/gpu-cache-A,
# built on the safetile of .gpu/site-A (.gpu/build-A.py).  Everything lands in $OUT/results.tgz.
export PYTHONPATH=$PWD/.gpu/site-A SAFETILE_CACHE_DIR=build/gpu-cache-A PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/bwd $R/ro1 $R/ro2
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $R/gpu.txt
cat $R/gpu.txt
pack() { cd $OUT && tar czf results.tgz r && rm -rf r; }
# fail fast: the step's attention forward + backward and a d128 backward, head-major, from the cache
python3 -P - <<'PY' || { pack; exit 3; }
import torch, safetile.nn as snn
B = snn.AttentionTiles
snn.ATTENTION_BACKWARD_TILES[(128, False)] = (B(128, 64, 8, 4, head_major=1), B(128, 64, 8, 4, head_major=1))
for (h, kv, s, d, c) in ((16, 8, 1024, 64, True), (16, 16, 2048, 128, False)):
    q = torch.randn(4, h, s, d, dtype=torch.bfloat16, device="cuda", requires_grad=True)
    k, v = (torch.randn(4, kv, s, d, dtype=torch.bfloat16, device="cuda", requires_grad=True) for _ in range(2))
    o = snn.attention(q, k, v, causal=c)
    do = torch.randn_like(o)
    g = torch.autograd.grad(o, (q, k, v), do)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=c, enable_gqa=True)
    r = torch.autograd.grad(ref, (q, k, v), do)
    print("smoke ok", d, c, [float((a - b).abs().max() / b.abs().max()) for a, b in zip(g, r)])
PY
s=$(date +%s)
timeout 60 python3 -P bench/train.py --out $R/ro1 --steps 300 --mode reduce-overhead > $R/ro1.log 2>&1; head -6 $R/ro1.log | cut -c1-200
echo "train.py reduce-overhead 1: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 80 python3 -P bench/backward.py --out $R/bwd --only attention_forward,attention --cases d64,d64_causal,d128,d128_causal > $R/bwd.log 2>&1
grep -v Warning $R/bwd.log | grep "safetile\|sdpa\|tutorial\|{" | cut -c1-160
echo "backward.py: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 45 python3 -P bench/train.py --out $R/ro2 --steps 300 --mode reduce-overhead > $R/ro2.log 2>&1; head -6 $R/ro2.log | cut -c1-200
echo "train.py reduce-overhead 2: $(( $(date +%s) - s )) s"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/gpu.txt
pack; ls -la $OUT
