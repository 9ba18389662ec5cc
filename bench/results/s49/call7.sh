#!/bin/bash
# Session 49, call 7: the L2 prefetch of the activation ahead of the ring by each raster group's
# first CTA only (--l2-ahead N > 0; call 3 had every CTA prefetch, with the weight too, and was
# 14-40% slower), against none, same binary, alternated, two rounds; the prefetch tests.
# Carry [".device/next"] (mxgemm_bench.xz, mxgemm_gpu_tests.xz of build-dev with the experiment).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-220}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/next/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name --format=csv > $L/smi.log 2>&1
limited 30 $T --gtest_filter='*L2PrefetchAhead*' > $L/tests.log 2>&1; stamp "prefetch tests rc=$?"
S="--m 2048,4096,8192 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for v in 0 8 16 4; do
    limited 15 $B $S --mode weight-only --l2-ahead $v > $L/Pweight-only_${v}_r$r.log 2>&1; stamp "wo ahead $v r$r rc=$?"
  done
done
for v in 0 8; do
  limited 15 $B $S --mode mxfp8 --l2-ahead $v > $L/Pmxfp8_${v}_r1.log 2>&1; stamp "mx ahead $v rc=$?"
  limited 20 $B --m 4096 --n 28672,8192 --k 8192,28672 --iters 20 --mode weight-only --l2-ahead $v > $L/Qweight-only_${v}_r1.log 2>&1; stamp "wo llm ahead $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log; grep -E "^\[  (PASSED|FAILED) " logs/tests.log
echo "== weight-only: M | ahead 0 8 16 4, round 1 | round 2 (us) | cuBLAS bf16 (r1)"
for M in 2048 4096 8192; do
  line="$M"
  for r in 1 2; do for v in 0 8 16 4; do line="$line $(awk -v m=$M '$1==m && NF>20 {print $5}' logs/Pweight-only_${v}_r$r.log)"; done; line="$line |"; done
  echo "$line $(awk -v m=$M '$1==m && NF>20 {print $8}' logs/Pweight-only_0_r1.log)"
done
for f in Pmxfp8 Qweight-only; do for v in 0 8; do echo "== $f ahead $v"; awk '$1 ~ /^[0-9]+$/ && NF>20 {print $1, $2, $3, $5, $8}' logs/${f}_${v}_r1.log; done; done
cat logs/summary.txt
rm -rf logs
