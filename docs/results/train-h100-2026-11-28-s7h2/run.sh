#!/bin/bash
# helper-H2's GPU call (session 17): the training step in torch.compile's default mode, where its time
# goes back to back.  The site .gpu/site-H2 is a `git archive` of 219b418 installed with --target (its
# bench/ as hbench/); cubins: build/gpu-cache-H2, built on that site (.gpu/build-H2.py, as helper H's).
# bench/train.py --steps 200 --steady --profile: the three runs' time a step, then for both compiled
# steps each call's host time back to back (gc on, off, on), calls behind 100 ms of GPU work, cProfile
# and a torch.profiler trace of 3 steady steps; then --profile's account.  Everything lands in
# $OUT/results.tgz.
export PYTHONPATH=$PWD/.gpu/site-H2 SAFETILE_CACHE_DIR=build/gpu-cache-H2 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/default
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $R/gpu.txt
nproc >> $R/gpu.txt; lscpu | grep "Model name" >> $R/gpu.txt
cat $R/gpu.txt
s=$(date +%s)
timeout 120 python3 -P .gpu/site-H2/hbench/train.py --out $R/default --steps 200 --steady --profile > $R/default.log 2>&1
echo "train.py: rc $? $(( $(date +%s) - s )) s"
head -6 $R/default.log | cut -c1-200
python3 - $R/default/train.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k, v in r.get("steady", {}).items():
    print(k, {n: (round(x["wall_ms_per_step"], 3), round(x["call_ms_median"], 3), round(x["call_ms_p90"], 3), round(x["call_ms_max"], 2)) if isinstance(x, dict) else x for n, x in v.items()})
p = r.get("profile", {})
for k in ("safetile", "torch.compile"):
    if k in p: print(k, "host", p[k].get("host_ms_per_step"), "gpu", p[k].get("gpu_ms_per_step_host_ahead"))
PY
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/gpu.txt
cd $OUT && tar czf results.tgz r && rm -rf r; ls -la $OUT
