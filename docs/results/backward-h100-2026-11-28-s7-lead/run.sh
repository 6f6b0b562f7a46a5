export PYTHONPATH=$PWD/.gpu/site-L SAFETILE_CACHE_DIR=build/gpu-cache-L PYTHONUNBUFFERED=1
R=$OUT; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt; cat $R/gpu.txt
s=$(date +%s)
timeout 130 python3 -P -m pytest test/gpu -m gpu -q -p no:cacheprovider -x > $R/gpu-tests.log 2>&1; tail -4 $R/gpu-tests.log
echo "pytest: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 95 python3 -P bench/backward.py --out $R/step1 --only step --step-mode reduce-overhead > $R/step1.log 2>&1; grep -i "step\|failed\|Error" $R/step1.log | grep -v Warn | tail -8 | cut -c1-220
echo "step1: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 45 python3 -P bench/backward.py --out $R/attn --only attention --cases d128,d128_causal > $R/attn.log 2>&1; grep "attention" $R/attn.log | grep -v Warn | tail -8 | cut -c1-220
echo "attn: $(( $(date +%s) - s )) s"; s=$(date +%s)
timeout 80 python3 -P bench/backward.py --out $R/step2 --only step --step-mode reduce-overhead > $R/step2.log 2>&1; grep -i "step\|failed\|Error" $R/step2.log | grep -v Warn | tail -8 | cut -c1-220
echo "step2: $(( $(date +%s) - s )) s"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/gpu.txt
