#!/bin/bash
# The lead's closing TP call (session 19, asked nvidia-h100-x2): the TP table on the shipped defaults --
# 14B TP=2 "peer", 14B TP=1, 32B TP=2 "peer", each over the context sweep, profiled.
R=/tmp/rT
export PYTHONPATH=$PWD/.gpu/site-L SAFETILE_CACHE_DIR=build/gpu-cache-F2 PYTHONUNBUFFERED=1
mkdir -p $R
finish() { tar czf $OUT/all.tgz -C /tmp rT; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $R/gpu.txt 2>&1
nvidia-smi topo -m >> $R/gpu.txt 2>&1; cat $R/gpu.txt | head -3
timeout 230 python3 -P bench/tp.py $R --baseline peer --others peer --peer-check-deadline 40 --deadline 200 > $R/run.log 2>&1
echo "tp rc $?"; grep -E "MissingCubin|Error|exited|peer-check:" $R/run.log | cut -c1-200 | tail -8
python3 - <<'PY'
import json
r = json.load(open("/tmp/rT/tp.json"))
print(r.get("device"), r.get("date"))
for n, e in r["runs"].items():
    print(n, round(e.get("graph", 0), 2), "of roofline", round(e.get("of_roofline", 0), 3), {k: round(v, 1) for k, v in e.get("by_context", {}).items()})
print({k: v for k, v in r.items() if k not in ("runs",) and not isinstance(v, (dict, list))})
PY
