#!/bin/bash
# Prepared for the next session with a device (not run): main as session 48 left it (91ae365).
# Build here first (binaries do not survive a new checkout):
#   cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DMXGEMM_SM100=OFF -DMXGEMM_BUILD_SPIKES=OFF
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   mkdir -p .device/next && xz -c build-dev/apps/mxgemm_bench > .device/next/mxgemm_bench.xz   (same for tests/mxgemm_gpu_tests)
# Carry [".device/next"]. (1) The GPU suite. (2) The TMA store (192/256-row tiles) against the
# threads' store, same binary, alternated, two rounds, on the large shapes of issue #7 and the
# 192-row widths. (3) The large and mid suites with it, both modes (the README's H200/H100 tables
# predate it). Session 48 ran only on H100s: say which GPU each number came from.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-560}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/next/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 200 $T > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
S="--m 160,384,2048,4096,8192 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in never auto; do
      limited 40 $B $S --mode $mode --tma-store $v > $L/T${mode}_${v}_r$r.log 2>&1; stamp "$mode $v r$r rc=$?"
    done
  done
done
limited 60 $B --suite large --iters 20 --mode weight-only > $L/large_wo.log 2>&1; stamp "large wo rc=$?"
limited 60 $B --suite large --iters 20 > $L/large_mx.log 2>&1; stamp "large mx rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -6
table Tweight-only never auto; table Tmxfp8 never auto
for f in large_wo large_mx; do grep -A3 "geometric mean" logs/$f.log | sed -n 2,4p; done
cat logs/summary.txt
rm -rf logs
