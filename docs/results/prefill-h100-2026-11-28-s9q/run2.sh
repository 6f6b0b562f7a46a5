#!/bin/bash
# helper-Q session 19 (nvidia-h100-x1): call 2, the cache write's block rows with the rotary table.
D=docs/results/prefill-h100-2026-11-28-s9q; R=/tmp/rQ2
export PYTHONPATH=$PWD/.gpu/site-Q SAFETILE_CACHE_DIR=build/gpu-cache-Q2 PYTHONUNBUFFERED=1
mkdir -p $R
finish() { tar czf $OUT/all.tgz -C /tmp rQ2; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $R/gpu.txt 2>&1
timeout 60 python3 -P -c "import sys; sys.path.insert(0, 'examples'); import safetile, torch, qwen3.model; print('import ok')" || exit 3
timeout 170 python3 -P $D/run2.py $R > $R/log.txt 2>&1
echo "prefill rc $?"; grep -E "graph|MissingCubin|Error|done" $R/log.txt | cut -c1-200 | tail -20
python3 - <<'PY'
import json
r = json.load(open("/tmp/rQ2/prefill.json"))
for n, e in r["ttft"].items():
    print(n, {k: round(v * 1e3, 3) for k, v in e.get("graph_by_tiles_s", {}).items()}, "bound", round(e.get("shape_bound_s", 0) * 1e3, 3), "of", e.get("of_shape_bound"))
for n, b in r["breakdown"].items():
    for label, ks in b.items():
        print(n, label, {k[:40]: round(v, 3) for k, v in sorted(ks.items(), key=lambda x: -x[1])[:9]})
PY
