#!/bin/bash
# The lead's closing call (session 19, nvidia-h100-x1): the GPU suite, then the prefill table at every length.
D=docs/results/prefill-h100-2026-11-28-s9L; R=/tmp/rL
export PYTHONPATH=$PWD/.gpu/site-L SAFETILE_CACHE_DIR=build/gpu-cache-F1 PYTHONUNBUFFERED=1
mkdir -p $R
finish() { tar czf $OUT/all.tgz -C /tmp rL; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
timeout 150 python3 -P -m pytest test/gpu -m gpu -q -p no:cacheprovider > $R/gpu-tests.log 2>&1
echo "suite rc $?"; tail -4 $R/gpu-tests.log
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $R/smi.csv 2>&1 &
timeout 360 python3 -P $D/final_prefill.py $R 300 > $R/log.txt 2>&1
echo "prefill rc $?"; grep -E "MissingCubin|Error" $R/log.txt | cut -c1-200 | tail -5
python3 - <<'PY'
import json
r = json.load(open("/tmp/rL/prefill.json"))
for n, e in r["ttft"].items():
    print(n, json.dumps({k: v for k, v in e.items() if not isinstance(v, (dict, list))})[:900])
    print("  graph", {k: round(v * 1e3, 3) for k, v in e.get("graph_by_tiles_s", {}).items()})
PY
