#!/bin/bash
# The lead's check of the 1.7x by bench/method.py's rules (session 19, asked nvidia-h100-x2):
# bench/tp.py --rounds, both GPUs' clocks sampled every 100 ms beside it.
R=/tmp/rR
export PYTHONPATH=$PWD/.gpu/site-L SAFETILE_CACHE_DIR=build/gpu-cache-F2 PYTHONUNBUFFERED=1
mkdir -p $R
finish() { kill %1 2>/dev/null; tar czf $OUT/all.tgz -C /tmp rR; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $R/gpu.txt 2>&1
head -3 $R/gpu.txt
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $R/smi.csv 2>&1 &
timeout 200 python3 -P bench/tp.py $R --rounds --deadline 180 > $R/run.log 2>&1
echo "rounds rc $?"; grep -E "Error|exited" $R/run.log | cut -c1-200 | tail -5
python3 - <<'PY'
import json
r = json.load(open("/tmp/rR/rounds.json"))
print(r.get("device"), r.get("date"), r.get("errors"))
print(r.get("steps_a_second"), r.get("tp2_over_tp1"))
for t in r.get("turns", [])[:16]:
    print(t["regime"], t["name"], [round(x, 1) for x in t["rates"] if x][:6])
PY
