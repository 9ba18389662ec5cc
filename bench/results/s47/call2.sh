#!/bin/bash
# Session 47, device call 2: branch s47-wo-192 (weight-only 129..192 rows in the 192-row tile, Auto
# for every activation type; `--width-192 always`: 192-row tiles at every M above 128). Built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -c build-dev/apps/mxgemm_bench > .device/s47/mxgemm_bench.xz (same for tests/mxgemm_gpu_tests)
# Carry [".device/s47"]. Bench first (auto against never, two rounds; BF16 and FP16 weight-only),
# several 192-row tiles against 256 (always against auto), then the GPU suite and memcheck.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/s47/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s47/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
W="--m 129,160,192 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for v in never auto; do
    limited 25 $B $W --mode weight-only --width-192 $v > $L/W_${v}_r$r.log 2>&1; stamp "W $v r$r rc=$?"
    limited 25 $B $W --mode weight-only-fp16 --width-192 $v > $L/F_${v}_r$r.log 2>&1; stamp "F $v r$r rc=$?"
  done
done
for v in never auto; do
  limited 25 $B --m 160 --n 4096,28672 --k 8192 --iters 20 --mode weight-only --width-192 $v > $L/N_${v}_r1.log 2>&1
  stamp "N $v rc=$?"; cp $L/N_${v}_r1.log $L/N_${v}_r2.log
done
S="--m 300,384,520,576,900 --n 8192 --k 8192 --iters 20"
for v in auto always; do
  limited 35 $B $S --width-192 $v > $L/S_${v}_r1.log 2>&1; stamp "S mxfp8 $v rc=$?"
  limited 35 $B $S --mode weight-only --width-192 $v > $L/SW_${v}_r1.log 2>&1; stamp "S weight-only $v rc=$?"
done
for v in auto always; do cp $L/S_${v}_r1.log $L/S_${v}_r2.log; cp $L/SW_${v}_r1.log $L/SW_${v}_r2.log; done
limited 230 $T > $L/tests_full.log 2>&1; stamp "GPU suite rc=$?"
limited 90 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuWeightOnly.TilesOf192*:GpuWeightOnly.StaleRows*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
cd $OUT && tar czf logs.tgz logs
table W never auto
table F never auto
echo "(one round, repeated)"; table N never auto
echo "(one round, repeated)"; table S auto always
echo "(one round, repeated)"; table SW auto always
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -4
cat logs/summary.txt
rm -rf logs
