#!/bin/bash
# Session 49, call 1 (session 48's next.sh, split in two): the GPU suite (with the new TMA-store
# test shapes) and the TMA store (192/256-row tiles) against the threads' store, same binary,
# alternated, two rounds. Built here from main + the test change:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -c build-dev/apps/mxgemm_bench > .device/next/mxgemm_bench.xz (same for tests/mxgemm_gpu_tests)
# Carry [".device/next"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-560}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/next/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 220 $T > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
S="--m 160,384,2048,4096,8192 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in never auto; do
      limited 40 $B $S --mode $mode --tma-store $v > $L/T${mode}_${v}_r$r.log 2>&1; stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
table Tweight-only never auto; table Tmxfp8 never auto
cat logs/summary.txt
rm -rf logs
