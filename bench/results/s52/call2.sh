#!/bin/bash
# Session 52, call 2: session 51's prepared script, run as it stands (binaries in .device/next,
# built in session 51; carry [".device/next"]).
# Session 51, call 4: the decode suite with the device queries cached (mxgemm_bench_cached, main
# 0e49961's library), at the default spin (50 us, the same for every method) and at 200 us: how much
# the published ratios depend on the idle time before each timed run. Run on whatever GPU came.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
unpack mxgemm_bench_cached
B=/tmp/mxgemm_bench_cached
nvidia-smi --query-gpu=name --format=csv,noheader > $L/smi.log 2>&1
for s in 50 200; do
  limited 150 $B --suite decode --iters 30 --spin-us $s --csv $L/D_mx$s.csv > $L/D_mx$s.log 2>&1; stamp "decode mxfp8 spin $s rc=$?"
done
limited 150 $B --suite decode --iters 30 --mode weight-only --csv $L/D_wo50.csv > $L/D_wo50.log 2>&1; stamp "decode weight-only spin 50 rc=$?"
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for f in logs/D_*.log; do echo "== $f"; grep -E "geomean|note: .*spin" $f | head -8; done
python3 - <<'PY'
import csv
a = {(r['m'], r['n'], r['k']): r for r in csv.DictReader(open('logs/D_mx50.csv'))}
b = {(r['m'], r['n'], r['k']): r for r in csv.DictReader(open('logs/D_mx200.csv'))}
print("shape | spin 50: mxgemm bf16 fp8 floor-x | spin 200: mxgemm bf16 fp8 floor-x (us)")
for key in a:
    if key not in b: continue
    x, y = a[key], b[key]
    print(' x '.join(key), '|', x['mxgemm_us'], x['bf16_us'], x['fp8_us'], x['mxgemm_over_floor'], '|', y['mxgemm_us'], y['bf16_us'], y['fp8_us'], y['mxgemm_over_floor'])
PY
cat logs/summary.txt
rm -rf logs
