#!/bin/bash
# Session 59, call 4: call 2's suites on an H200 if one comes (named nvidia-h200); on any other
# GPU it only prints which came (the H100 columns were call 2's). Weight-only decode first: the
# README's H200 column for it is session 49's. Carry [".device/s58"] (main 14dcc08's bench).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-420}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
if ! grep -q H200 $L/smi.log; then echo "not an H200: nothing run"; exit 0; fi
xz -dc .device/s58/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
limited 170 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_weight-only.csv > $L/decode_weight-only.log 2>&1
stamp "decode weight-only rc=$?"
for mode in weight-only mxfp8; do
  limited 90 $B --suite large --iters 20 --mode $mode --csv $L/large_$mode.csv > $L/large_$mode.log 2>&1
  stamp "large $mode rc=$?"
  limited 30 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in decode_weight-only large_weight-only large_mxfp8 mid_weight-only mid_mxfp8; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
