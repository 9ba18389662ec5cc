#!/bin/bash
# Session 50, call 8 (main + the device-aware weight_only_f16_form_preferred, built here): the
# weight-only GPU tests, then the rule's shapes in auto (the library's pick on this GPU) against
# both forms forced, one round.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
unpack mxgemm_bench mxgemm_gpu_tests
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 120 /tmp/mxgemm_gpu_tests --gtest_filter='*WeightOnly*' > $L/tests.log 2>&1; stamp "weight-only GPU tests rc=$?"
for v in auto bf16 f16; do
  limited 30 /tmp/mxgemm_bench --m 48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/R_${v}_r1.log 2>&1
  stamp "values $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -5
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print FILENAME": "$1" "$2" "$3" "$5" us"}' logs/R_*_r1.log
cat logs/summary.txt
rm -rf logs
