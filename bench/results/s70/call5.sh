#!/bin/bash
# Session 70, call 5 (any GPU): how much faster the permuted-order instance's stages run than the
# natural order's, weight-only at large M. The permuted order (`--mx-values bf16-permuted`: a
# pre-pass copies the BF16 rows into the permuted K order) lets each thread load its weight
# fragment with 4 eight-byte loads a stage instead of 16 two-byte ones. Session 56 timed it slower
# overall (the copy is an extra pass over the activation); the trace separates the copy (before
# the first stage) from the stages. The same stage rate without the copy is what a weight stored
# once in the permuted order (prepacked) would give. Trace build of main's kernels (.device/next).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-100}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
unpack bench_trace
for s in "2048 4096 4096" "4096 4096 4096" "2048 8192 8192" "4096 8192 8192"; do set -- $s
  for v in auto bf16-permuted; do
    MXGEMM_TRACE=1 limited 20 /tmp/bench_trace --m $1 --n $2 --k $3 --iters 20 --mode weight-only --mx-values $v > $L/trace_$1_$2_$3_$v.log 2>&1
    stamp "$s $v rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5 " us, bf16 " $8 ", " $NF}' $L/trace_$1_$2_$3_$v.log) | $(grep '^TRACE' $L/trace_$1_$2_$3_$v.log | tail -1 | tr '|' '\n' | grep -E 'first_stage| end |stages|math_wait|epi_ns|MHz|cyc' | tr -s ' ' | tr '\n' '|')"
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/summary.txt
rm -rf logs
