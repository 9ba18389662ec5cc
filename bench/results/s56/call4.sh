#!/bin/bash
# Session 56, call 4: main 8227abd. Any GPU: (S) compute-sanitizer on the permuted BF16 copy's
# tests (34bb01a's pre-pass, never yet under the sanitizers): memcheck on both, racecheck on the
# small-shape one. (R) The 128-row tile's own rate: MXFP8 128 and 8192 x 8192^2 with FP16 out
# (which takes 128-row tiles at every M, K > 2048) against BF16 out (256-row tiles above 128 rows).
# Then on an H200: (P) call1.sh's H200 part. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for b in mxgemm_gpu_tests mxgemm_bench; do xz -dc .device/s56/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
T=/tmp/mxgemm_gpu_tests B=/tmp/mxgemm_bench
limited 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuWeightOnly.Bf16ActivationsInThePermutedOrderMatchReference:GpuWeightOnly.PermutedCopyOfEightKRowWeightsMatchesInPlaceAndTheLibrarysChoice' \
  > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
limited 150 compute-sanitizer --tool racecheck --error-exitcode 3 $T \
  --gtest_filter='GpuWeightOnly.Bf16ActivationsInThePermutedOrderMatchReference' > $L/racecheck.log 2>&1; stamp "racecheck rc=$?"
for r in 1 2; do
  for o in bf16 fp16; do
    limited 30 $B --m 128,8192 --n 8192 --k 8192 --iters 20 --mx-out $o > $L/R_${o}_r$r.log 2>&1; stamp "R $o r$r rc=$?"
  done
done
if grep -q H200 $L/smi.log; then
  for r in 1 2; do
    for v in auto bf16-permuted bf16; do
      limited 35 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
      stamp "P $v r$r rc=$?"
    done
    limited 35 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxfp8_r$r.log 2>&1
    stamp "P mxfp8 r$r rc=$?"
  done
fi
cd $OUT && tar czf logs.tgz logs
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log logs/racecheck.log | tail -6
table R bf16 fp16
[ -f logs/P_auto_r1.log ] && { grep -h "memory floor's bandwidth" logs/P_auto_r1.log; table P auto bf16-permuted bf16 mxfp8; }
cat logs/summary.txt
rm -rf logs
