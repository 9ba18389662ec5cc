#!/bin/bash
# Session 42 call E (prepared, not run: no device time left): m42 (main at 937b74f) against mpw
# (branch s42-padded-ws: the MXFP8 pre-pass's activation padded to whole tiles in the workspace
# for launches of several tiles), alternated, two rounds: MXFP8 M whose last tile is partial
# (300 / 600 / 1000 / 2100 rows: 256-row tiles) and whole (512, 2048: no change expected), N = K =
# 8192; then mpw's StaleRows test (its new case: two 256-row tiles after 512 NaN rows) under
# memcheck and its GEMM GPU tests. Carry [".device/s42/m42", ".device/s42/mpw"].
set -u
L=$OUT/logs; mkdir -p $L
BUDGET=${BUDGET:-540}
source "$(dirname "$0")/../s39/common.sh"  # limited (under BUDGET), stamp, table
for v in m42 mpw; do xz -dc .device/s42/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s42/mpw/mxgemm_gpu_tests.xz > /tmp/gpu_tests_mpw && chmod +x /tmp/gpu_tests_mpw
P="--m 300,512,600,1000,2048,2100 --n 8192 --k 8192 --iters 20"
for r in 1 2; do for v in m42 mpw; do
  limited 60 /tmp/bench_$v $P > $L/P_${v}_r$r.log 2>&1; stamp "P $v r$r rc=$?"
done; done
limited 120 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_mpw --gtest_filter='*StaleRows*' > $L/memcheck_mpw.log 2>&1
stamp "memcheck mpw rc=$?"
limited 200 /tmp/gpu_tests_mpw --gtest_filter='GpuGemm.*:GpuStream*:GpuSkinny*:GpuWeightOnly.*:GpuWorkspace.*' > $L/tests_mpw.log 2>&1
stamp "tests mpw rc=$?"
cd $OUT && tar czf logs_e.tgz logs
table P m42 mpw
for f in memcheck_mpw tests_mpw; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED" logs/$f.log | tail -6; done
cat logs/summary.txt
rm -rf logs
