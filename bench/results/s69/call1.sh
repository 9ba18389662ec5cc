#!/bin/bash
# Session 69, call 1: issue #7's large-M bar (and #3's mid bars) on the H200 with main's build
# (f6e1332, built here: .device/s69/{gpu_tests,bench}.xz). The large suites, weight-only then
# MXFP8, then the mid and decode suites (every README column), then the whole GPU suite as far as
# BUDGET lets it run. On an H100 it stops at once: session 68 ran main's build whole there (GPU
# suite 312/312, Python 222 passed).
# Carry [".device/s69/gpu_tests.xz", ".device/s69/bench.xz"]. BUDGET (default 500) caps it.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-500}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200: stopped"; exit 0; }
xz -dc .device/s69/gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
xz -dc .device/s69/bench.xz > /tmp/bench && chmod +x /tmp/bench
for s in "large weight-only 20 90" "large mxfp8 20 90" "mid weight-only 20 30" "mid mxfp8 20 30" \
         "decode weight-only 30 100" "decode mxfp8 30 100"; do set -- $s
  limited $4 /tmp/bench --suite $1 --iters $3 --mode $2 --csv $L/$1_$2.csv > $L/$1_$2.log 2>&1; stamp "$1 $2 rc=$?"
done
limited 200 /tmp/tests > $L/tests_all.log 2>&1
stamp "whole GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_all.log | tr '\n' ' ')"
grep -E '^\[  (FAILED|SKIPPED) ' $L/tests_all.log | head -20 >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only large_mxfp8 mid_weight-only mid_mxfp8 decode_weight-only decode_mxfp8; do
  grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
  echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/$f.log
done
cat logs/summary.txt
rm -rf logs
