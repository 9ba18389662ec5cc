#!/bin/bash
# Session 51, call 2: why 48 / 64 x 8192 x 28672 weight-only under --mx-values auto ran 6% faster
# than under --mx-values bf16 on the H100 in call 1 (and session 50's call 8), when the rule should
# pick the same bf16 in-place kernel for both: which kernels each runs (ncu names and durations).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
unpack mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $L/smi.log 2>&1
for v in auto bf16 f16; do
  limited 90 ncu --metrics gpu__time_duration.sum -k regex:'stream|prepass|reduce' --launch-count 12 \
    $B --m 48 --n 8192 --k 28672 --iters 20 --warmup 1 --warmup-ms 0 --mode weight-only --mx-values $v > $L/ncu_$v.log 2>&1
  stamp "ncu $v rc=$?"
done
for r in 1 2; do
  for v in bf16 auto; do
    limited 30 $B --m 48,64 --n 8192 --k 28672 --iters 30 --mode weight-only --mx-values $v > $L/W_${v}_r$r.log 2>&1
    stamp "values $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for v in auto bf16 f16; do echo "== ncu $v"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" logs/ncu_$v.log | sed -E 's/(.{150}).*/\1/' | paste - - | awk '{print}' | tail -8; done
table W bf16 auto
cat logs/summary.txt
rm -rf logs
