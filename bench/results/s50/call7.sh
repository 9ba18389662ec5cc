#!/bin/bash
# Session 50, call 7 (asked of the H200; an H100 came): calls 4 and 6 together, for the H200 (issue #4's bars are the H200's). Same binary
# (main + the bench's --mx-values; .device/next). (1) Weight-only 48..128 rows: the fp16 values
# form through its pre-pass (the library's choice there, measured on the H200 in session 31)
# against the bf16 form read in place, which measured 2.5-6% faster on two H100s at 48 / 64 rows
# of N = 8192 (calls 4, 5). (2) Weight-only 17..32 rows against MXFP8 activations in the bf16
# values form (the kernel a K-permuted copy of a BF16 activation would feed): on the H200 weight-only
# 32 x 8192 x 28672 took 75.6-76.9 us against MXFP8's 70.8-71.2 (call 2); on an H100 the two are
# level (call 6). Alternated, two rounds each.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-400}
: > $L/summary.txt
unpack mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for r in 1 2; do
  for v in auto bf16; do
    limited 40 $B --m 48,64,96,128 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/W_${v}_r$r.log 2>&1
    stamp "values $v r$r rc=$?"
    limited 40 $B --m 48,64,96,128 --n 28672 --k 8192 --iters 30 --mode weight-only --mx-values $v > $L/X_${v}_r$r.log 2>&1
    stamp "values $v N=28672 r$r rc=$?"
  done
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only > $L/P_wo_r$r.log 2>&1; stamp "weight-only r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 --mx-values bf16 > $L/P_mxbf16_r$r.log 2>&1; stamp "mxfp8 bf16 r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxauto_r$r.log 2>&1; stamp "mxfp8 auto r$r rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -h "memory floor's bandwidth" logs/W_auto_r1.log
table W auto bf16; table X auto bf16; table P wo mxbf16 mxauto
cat logs/summary.txt
rm -rf logs
