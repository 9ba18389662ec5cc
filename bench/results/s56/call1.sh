#!/bin/bash
# Session 56, call 1: main 8227abd (d033529's host-only fix of the forced permuted copy, never yet
# run on a GPU). Any GPU: (T) the whole GPU suite. Only on an H200 then: (P) the part of
# ../s55/call3.sh that asks whether the permuted BF16 copy helps the H200's 17..64 weight-only rows:
# weight-only 17..64 x 8192 x {8192, 28672}, --mx-values auto / bf16-permuted / bf16, alternated,
# two rounds, with MXFP8 (auto) once a round as the mark to reach.
# Carry [".device/s56"]: mxgemm_gpu_tests.xz, mxgemm_bench.xz (main's build-dev).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for b in mxgemm_gpu_tests mxgemm_bench; do xz -dc .device/s56/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
limited 220 /tmp/mxgemm_gpu_tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
if grep -q H200 $L/smi.log; then
  B=/tmp/mxgemm_bench
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
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests? ran|SKIPPED" logs/T.log | head -20
grep -E "PermutedCopyOfEightKRow|LibraryCopiesIntoThePermutedOrder|Bf16ActivationsInThePermutedOrder" logs/T.log | head -6
[ -f logs/P_auto_r1.log ] && { grep -h "memory floor's bandwidth" logs/P_auto_r1.log; table P auto bf16-permuted bf16 mxfp8; }
cat logs/summary.txt
rm -rf logs
