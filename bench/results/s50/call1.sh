#!/bin/bash
# Session 50, call 1 (H100): session 49's prepared next.sh, run as it was (binary: main d4be21f + promote_stagger.patch).
# Prepared for the next session with a device (not run). Build here first, with the staggered
# promotion experiment applied (git apply bench/results/s49/promote_stagger.patch: --promote stagger,
# the second math warpgroup promotes half a chain earlier; built and spill-checked in session 49,
# the new spills of the 256-row kernels lie outside the mainloop):
#   cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DMXGEMM_SM100=OFF -DMXGEMM_BUILD_SPIKES=OFF
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   mkdir -p .device/next && xz -c build-dev/apps/mxgemm_bench > .device/next/mxgemm_bench.xz   (same for tests/mxgemm_gpu_tests)
# Carry [".device/next"]. (1) The GPU suite. (2) What the 256-row tiles' promotion into global
# memory costs where #7 loses most (K = 28672 at 2048 / 4096 rows: 0.88x-0.89x cuBLAS bf16 on the
# H200 in session 49, against 0.94x-0.97x at K = 8192): --promote never against auto, same binary,
# alternated, two rounds (timing only), and --promote stagger (the patch: if it wins, land it, the
# GPU suite of (1) having run its test). K = 8192 (no promotion) is the control: the three must be
# level there. Say which GPU each number came from.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-560}
: > $L/summary.txt
unpack mxgemm_bench mxgemm_gpu_tests
B=/tmp/mxgemm_bench T=/tmp/mxgemm_gpu_tests
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 200 $T > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in auto never stagger; do
      limited 30 $B --m 2048,4096 --n 8192 --k 28672,8192 --iters 20 --mode $mode --promote $v > $L/R${mode}_${v}_r$r.log 2>&1
      stamp "$mode promote $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -6
table Rweight-only auto never stagger; table Rmxfp8 auto never stagger
cat logs/summary.txt
rm -rf logs
