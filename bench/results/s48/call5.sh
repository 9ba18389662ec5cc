#!/bin/bash
# Session 48, device call 5: the change as landed (the exact-row mark loaded before the mainloop in
# the two-warpgroup tiles; call3's batched row-scale loads dropped: call4's trace showed no gain from
# them): the GPU suite, memcheck of the marked-rows test, and two more alternated rounds against
# main adb41da on the mid shapes. Carry [".device/s48c5"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-480}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_fix2 mxgemm_gpu_tests_fix2; do
  xz -dc .device/s48c5/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 240 /tmp/mxgemm_gpu_tests_fix2 > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
limited 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_fix2 \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*:GpuWeightOnly.Bf16ActivationsInTheFp16FormKeepOrMarkRowsExactly' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
S="--m 128,256,512 --n 8192 --k 8192 --iters 30"
for r in 1 2; do
  for v in head fix2; do
    b=/tmp/mxgemm_bench; [ $v = fix2 ] && b=/tmp/mxgemm_bench_fix2
    limited 30 $b $S > $L/S_${v}_r$r.log 2>&1; stamp "S $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
table S head fix2
cat logs/summary.txt
rm -rf logs
