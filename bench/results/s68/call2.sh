#!/bin/bash
# Session 68, call 2: main's build (as call 1: .device/s67/gpu_tests2.xz, bench.xz).
#  - On an H200: issue #7's large-M bar (and #3's mid bars) on its own GPU: the large suites,
#    weight-only then MXFP8, then the mid suites; the stream / weight-only GPU tests last.
#  - On an H100: main's whole GPU suite (its build has not run it whole; call 1 ran 46 tests).
# Carry [".device/s67/gpu_tests2.xz", ".device/s67/bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-500}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s67/gpu_tests2.xz > /tmp/tests && chmod +x /tmp/tests
if grep -q H200 $L/smi.log; then
  xz -dc .device/s67/bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
  for s in "large weight-only" "large mxfp8" "mid weight-only" "mid mxfp8"; do set -- $s
    limited 90 /tmp/new_bench --suite $1 --iters 20 --mode $2 --csv $L/$1_$2.csv > $L/$1_$2.log 2>&1; stamp "$1 $2 rc=$?"
  done
  limited 150 /tmp/tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $L/tests_stream.log 2>&1
  stamp "stream / weight-only GPU tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_stream.log | tr '\n' ' ')"
  cd $OUT && tar czf logs.tgz logs
  for f in large_weight-only large_mxfp8 mid_weight-only mid_mxfp8; do
    grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
    echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
    awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/$f.log
  done
else
  limited 400 /tmp/tests > $L/tests_all.log 2>&1
  stamp "whole GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_all.log | tr '\n' ' ')"
  grep -E '^\[  (FAILED|SKIPPED) ' $L/tests_all.log | head -20 >> $L/summary.txt
  cd $OUT && tar czf logs.tgz logs
fi
cat logs/summary.txt
rm -rf logs
