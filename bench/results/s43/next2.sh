#!/bin/bash
# For a session with a device (prepared in session 43, which had none; not yet run): the branch
# s43-row-blocks (two 64-row weight blocks a math warpgroup for one activation tile of 65..128
# rows: 256-row weight tiles; bench/results/s43/README.md), built at its commit into
# .device/s43/rb2. One binary times the three forms (`mxgemm_bench --row-blocks 1|2|2c`: the
# 128-row tiles; the row blocks on the stream-K schedule, which at these shapes is the split
# reduction or the fixups; the row blocks with each tile's K in a cluster of CTAs).
#  1. The branch's full GPU suite (its new RowBlocksMatchReference tests and every test that runs
#     65..128 rows, now on the row blocks by default), then memcheck on the row-block tests.
#  2. MXFP8 65 / 96 / 128 x {4096, 8192, 28672} x 8192 and 128 x 8192 x 28672, --row-blocks 1,
#     2 and 2c, alternated, two rounds; weight-only the same shapes, one round.
# Carry [".device/s43/rb2"] (13 MB). Summary tables last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-560}
: > $L/summary.txt
xz -dc .device/s43/rb2/mxgemm_bench.xz > /tmp/bench_rb && chmod +x /tmp/bench_rb
xz -dc .device/s43/rb2/mxgemm_gpu_tests.xz > /tmp/gpu_tests_rb && chmod +x /tmp/gpu_tests_rb
limited 150 /tmp/gpu_tests_rb --gtest_filter='GpuStreamGemm.RowBlocks*:GpuWeightOnly.RowBlocks*' > $L/tests_rowblocks.log 2>&1
stamp "row-block tests rc=$?"
limited 240 /tmp/gpu_tests_rb --gtest_filter='-*RowBlocks*' > $L/tests_full.log 2>&1; stamp "the rest of the GPU suite rc=$?"
limited 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_rb --gtest_filter='GpuStreamGemm.RowBlocks*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
S="--m 65,96,128 --n 4096,8192,28672 --k 8192 --iters 20"
for round in 1 2; do
  for v in 1 2 2c; do
    limited 60 /tmp/bench_rb $S --row-blocks $v > $L/M_rb${v}_r$round.log 2>&1; stamp "M rb$v r$round rc=$?"
    if [ $round = 1 ]; then
      limited 60 /tmp/bench_rb $S --row-blocks $v --mode weight-only > $L/W_rb${v}_r1.log 2>&1; stamp "W rb$v rc=$?"
    else
      cp $L/W_rb${v}_r1.log $L/W_rb${v}_r2.log 2>/dev/null  # (one round: the table repeats it)
    fi
  done
done
for v in 1 2 2c; do
  limited 30 /tmp/bench_rb --m 128 --n 8192 --k 28672 --iters 20 --row-blocks $v > $L/L_rb${v}_r1.log 2>&1
  cp $L/L_rb${v}_r1.log $L/L_rb${v}_r2.log 2>/dev/null
done
cd $OUT && tar czf logs.tgz logs
echo "== row-block tests"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_rowblocks.log | tail -6
echo "== full GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -12
echo "== memcheck"; grep -E "ERROR SUMMARY|PASSED|FAILED" logs/memcheck.log | tail -3
table M rb1 rb2 rb2c
echo "(weight-only: one round, repeated in the r2 columns)"; table W rb1 rb2 rb2c
echo "(one round)"; table L rb1 rb2 rb2c
cat logs/summary.txt
rm -rf logs
