#!/bin/bash
# Session 50, call 4 (same binary as call 3, the machine call 3 ran on): 33..128 weight-only rows,
# where the library takes the fp16 values form through its pre-pass (auto) on weights of N >=
# 8192 and 2^26 elements or more, against the bf16 form read in place; alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
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
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
table W auto bf16; table X auto bf16
cat logs/summary.txt
rm -rf logs
