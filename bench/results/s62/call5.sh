#!/bin/bash
# Session 62, call 5, never ran (no machine started for the ~370 s left): the landed build (mxgemm_bench_slot) on the
# suites of issue #7 and #3: large weight-only, then mid in both modes. Carry [".device/s62"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-170}
: > $L/summary.txt
xz -dc .device/s62/mxgemm_bench_slot.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 75 /tmp/mxgemm_bench --suite large --iters 20 --mode weight-only --csv $L/large_weight-only.csv > $L/large_weight-only.log 2>&1
stamp "large weight-only rc=$?"
for mode in weight-only mxfp8; do
  limited 22 /tmp/mxgemm_bench --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only mid_weight-only mid_mxfp8; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
