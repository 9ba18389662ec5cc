#!/bin/bash
# Session 47, device call 3: branch s47-wo-192 with the rule of call 2 (192-row tiles wherever as
# few of them as of 256 rows cover M: 129..192, 257..384, 513..576). Built as call2.sh says.
# Carry [".device/s47"]. The rule against the 256-row tiles (auto against never) at shapes in and
# out of its ranges, MXFP8 and weight-only, one round here (call 2 has the first); the GPU suite;
# memcheck of the tests of the 192-row tiles and of stale rows.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/s47/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s47/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
S="--m 257,300,384,400,520,576,600 --n 8192 --k 8192 --iters 20"
for v in never auto; do
  limited 40 $B $S --width-192 $v > $L/S_${v}_r1.log 2>&1; stamp "S mxfp8 $v rc=$?"
  limited 40 $B $S --mode weight-only --width-192 $v > $L/SW_${v}_r1.log 2>&1; stamp "S weight-only $v rc=$?"
done
for v in never auto; do cp $L/S_${v}_r1.log $L/S_${v}_r2.log; cp $L/SW_${v}_r1.log $L/SW_${v}_r2.log; done
limited 230 $T > $L/tests_full.log 2>&1; stamp "GPU suite rc=$?"
limited 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuWeightOnly.TilesOf192*:GpuWeightOnly.StaleRows*:GpuStreamGemm.StaleRows*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "(one round, repeated)"; table S never auto
echo "(one round, repeated)"; table SW never auto
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -4
cat logs/summary.txt
rm -rf logs
