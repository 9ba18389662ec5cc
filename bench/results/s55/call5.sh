#!/bin/bash
# Session 55, call 5: branch perm-h100 (session 51's permuted BF16 copy, now taken by the library
# for 33..64 weight-only BF16 rows on GPUs under 4 TB/s where the 64-row tiles fill the SMs:
# weight_only_bf16_permuted_preferred). Any GPU. (T) the whole GPU suite of the branch;
# (B) the branch's bench, weight-only 33/48/64 x 8192 x {8192, 28672} and 48/64 x 28672 x 8192,
# --mx-values auto against bf16 (read in place, main's choice on the H100), alternated, two
# rounds. Carry [".device/s55"]: mxgemm_gpu_tests.xz, mxgemm_bench.xz (the branch's build-dev).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-330}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for b in mxgemm_gpu_tests mxgemm_bench; do xz -dc .device/s55/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
limited 210 /tmp/mxgemm_gpu_tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
for r in 1 2; do
  for v in auto bf16; do
    limited 35 /tmp/mxgemm_bench --m 33,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v \
      > $L/B_${v}_r$r.log 2>&1; stamp "B $v r$r rc=$?"
    limited 25 /tmp/mxgemm_bench --m 48,64 --n 28672 --k 8192 --iters 30 --mode weight-only --mx-values $v \
      > $L/C_${v}_r$r.log 2>&1; stamp "C $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests? ran|SKIPPED" logs/T.log | head -20
grep -E "LibraryCopiesIntoThePermutedOrder|Bf16ActivationsInThePermutedOrder" logs/T.log | head -6
table B auto bf16; table C auto bf16
cat logs/summary.txt
rm -rf logs
