#!/bin/bash
# Prepared for the next session with the H200 (not run: calls 3-9 of session 50 got H100s). Build
# main here (Release, 90a, MXGEMM_SM100=OFF), xz the bench into .device/next/mxgemm_bench.xz, carry
# [".device/next"]. Issue #4's bars are the H200's; three questions the H100s could not answer:
# (1) Weight-only 48..128 rows, the fp16 values form (auto: what the H200 keeps, from session 31)
#     against the bf16 form read in place (what the H100 now takes at 33..64 rows of N = 8192).
#     If bf16 wins here too, drop the bandwidth test from weight_only_f16_form_preferred.
# (2) Weight-only 17..32 rows of the split weights (32 x 8192 x 28672 at 1.31x-1.33x the floor in
#     session 50's call 2, MXFP8 at 1.23x): auto (bf16 in place) against --mx-values f16 (the fp16
#     form's pre-pass; session 31 had it 2% slower) and against MXFP8 activations in the bf16 and
#     fp16 permuted forms: which of the permutation and the conversion makes MXFP8's 5 us.
# Alternated, two rounds each; say which GPU each number came from.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
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
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values f16 > $L/P_wof16_r$r.log 2>&1; stamp "weight-only f16 r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 --mx-values bf16 > $L/P_mxbf16_r$r.log 2>&1; stamp "mxfp8 bf16 r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxauto_r$r.log 2>&1; stamp "mxfp8 auto r$r rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -h "memory floor's bandwidth" logs/W_auto_r1.log
table W auto bf16; table X auto bf16; table P wo wof16 mxbf16 mxauto
cat logs/summary.txt
rm -rf logs
