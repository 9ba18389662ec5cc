#!/bin/bash
# Session 50, call 6 (same binary as calls 3-5): would a K-permuted copy of a BF16 activation help
# weight-only 17..32 rows on the split weights (32 x 8192 x 28672 at 1.31x-1.33x the floor on the
# H200 in call 2)? MXFP8 activations in the bf16 values form (--mx-values bf16: the permuted K
# order, 8-byte weight fragment loads, its pre-pass writing bf16) run the kernel such a copy would
# feed; against weight-only (the natural K order read in place) and MXFP8's own choice (the fp16
# form). Alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
unpack mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for r in 1 2; do
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only > $L/P_wo_r$r.log 2>&1; stamp "weight-only r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 --mx-values bf16 > $L/P_mxbf16_r$r.log 2>&1; stamp "mxfp8 bf16 r$r rc=$?"
  limited 40 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxauto_r$r.log 2>&1; stamp "mxfp8 auto r$r rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
table P wo mxbf16 mxauto
cat logs/summary.txt
rm -rf logs
