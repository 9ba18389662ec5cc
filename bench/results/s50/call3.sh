#!/bin/bash
# Session 50, call 3 (H200, main d4be21f + the bench's --mx-values, built here): the fp16 values
# form (BF16 activations through its pre-pass) against the bf16 form read in place, weight-only,
# where the library keeps the bf16 form: 17..32 rows on the split weights (32 x 8192 x 28672 was
# 1.31x-1.36x the floor, #4 / #7's bar 1.25x) and large M (#7's 1.0x: 2048 / 4096 rows), with
# the library's choice (auto) beside them; alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-420}
: > $L/summary.txt
unpack mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for r in 1 2; do
  for v in auto bf16 f16; do
    limited 40 $B --m 17,24,32,64 --n 8192 --k 28672,8192 --iters 30 --mode weight-only --mx-values $v > $L/Vsmall_${v}_r$r.log 2>&1
    stamp "small values $v r$r rc=$?"
    limited 40 $B --m 2048,4096 --n 8192 --k 8192 --iters 20 --mode weight-only --mx-values $v > $L/Vlarge_${v}_r$r.log 2>&1
    stamp "large values $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -h "memory floor's bandwidth" logs/*_r1.log | head -2
table Vsmall auto bf16 f16; table Vlarge auto bf16 f16
cat logs/summary.txt
rm -rf logs
