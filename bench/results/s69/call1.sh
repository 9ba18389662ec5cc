#!/bin/bash
# Session 69, call 1: issue #7's large-M bar (and #3's mid bars) on the H200 with main's build
# (f6e1332, built here: .device/s69/{gpu_tests,bench}.xz). The large suites, weight-only then
# MXFP8, then the mid suites, then the stream / weight-only GPU tests. On an H100 it stops at
# once: session 68 ran main's build whole there (GPU suite 312/312, Python 222 passed).
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
for s in "large weight-only" "large mxfp8" "mid weight-only" "mid mxfp8"; do set -- $s
  limited 90 /tmp/bench --suite $1 --iters 20 --mode $2 --csv $L/$1_$2.csv > $L/$1_$2.log 2>&1; stamp "$1 $2 rc=$?"
done
limited 150 /tmp/tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $L/tests_stream.log 2>&1
stamp "stream / weight-only GPU tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_stream.log | tr '\n' ' ')"
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only large_mxfp8 mid_weight-only mid_mxfp8; do
  grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
  echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/$f.log
done
cat logs/summary.txt
rm -rf logs
