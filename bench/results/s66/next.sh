#!/bin/bash
# Session 66, for the next device session (not run): call 4 (the new GPU test, then main against
# 6000902 on the shapes whose schedule changed), then the suites that settle issue #7's large-M
# bar on the committed build (.device/s66/new_bench.xz, rebuilt at 747b0e5: 6000902's schedule
# after review, the same behaviour): weight-only large twice, MXFP8 large, the mid suites. Each writes under
# $OUT/call4 or $OUT/retime. Carry [".device/s66/exp_bench.xz", ".device/s66/new_bench.xz",
# ".device/s66/new_gpu_tests.xz"].
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
OUT=$OUT/call4 BUDGET=220 bash bench/results/s66/call4.sh
L=$OUT/retime/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=$((SECONDS + ${RETIME:-340}))  # (limited counts from this script's start)
: > $L/summary.txt
xz -dc .device/s66/new_bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
run() { local name=$1 t=$2; shift 2; limited $t /tmp/new_bench "$@" --csv $L/$name.csv > $L/$name.log 2>&1; stamp "$name rc=$?"; }
run large_weight-only 60 --suite large --iters 20 --mode weight-only
run large_weight-only_r2 60 --suite large --iters 20 --mode weight-only
run large_mxfp8 60 --suite large --iters 20 --mode mxfp8
run mid_weight-only 20 --suite mid --iters 20 --mode weight-only
run mid_mxfp8 20 --suite mid --iters 20 --mode mxfp8
cd $OUT/retime && tar czf logs.tgz logs
for f in large_weight-only large_weight-only_r2 large_mxfp8 mid_weight-only mid_mxfp8; do
  grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
  echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
