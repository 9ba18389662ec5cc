#!/bin/bash
# Session 72, call 2 (any H100 or H200; the GPU's name is in logs/smi.log): the 16-row tiles in the
# permuted K order for 9..16 BF16 rows on a prepacked weight (they ran on the 32-row tiles before).
#  1. GPU tests: the weight-only suite (prepacked weights on every path) and the prepack.
#  2. On an H200 only: issue #7's large weight-only suite, natural against prepacked, two rounds
#     in alternated order, then the mid suite one round each way.
#  3. The decode weight-only suite, natural against prepacked weights (9..16 rows are the change).
# Binaries: .device/next/{bench,gpu_tests}.xz (this commit's build, sm_90a); carry [".device/next"].
# BUDGET (default 540) caps the whole call.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
unpack bench gpu_tests
limited 150 /tmp/gpu_tests --gtest_filter='GpuWeightOnly.*:GpuPrepack.*' > $L/tests_wo.log 2>&1
stamp "tests GpuWeightOnly+GpuPrepack rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_wo.log | tr '\n' ' ')"
cd $OUT
if grep -q H200 logs/smi.log; then
  for r in 1 2; do
    order="natural prepacked"; [ $r = 2 ] && order="prepacked natural"
    for v in $order; do
      limited 75 /tmp/bench --suite large --iters 20 --mode weight-only --weight-order $v > logs/large_${v}_r$r.log 2>&1
      stamp "large $v r$r rc=$? $(grep -A1 'geometric mean' logs/large_${v}_r$r.log | tail -1)"
    done
  done
  for v in natural prepacked; do
    limited 40 /tmp/bench --suite mid --iters 20 --mode weight-only --weight-order $v > logs/mid_${v}_r1.log 2>&1
    stamp "mid $v rc=$? $(grep -A1 'geometric mean' logs/mid_${v}_r1.log | tail -1)"
  done
fi
for v in natural prepacked; do
  limited 75 /tmp/bench --suite decode --iters 20 --mode weight-only --weight-order $v > logs/decode_${v}_r1.log 2>&1
  stamp "decode $v rc=$? $(grep -A1 'geometric mean' logs/decode_${v}_r1.log | tail -1)"
done
tar czf logs.tgz logs
grep -E '^\[  (FAILED|PASSED)|FAILED' logs/tests_wo.log | head -20
[ -f logs/large_natural_r1.log ] && table large natural prepacked
for s in mid decode; do
  [ -f logs/${s}_natural_r1.log ] || continue
  echo "== $s: M N K | natural us | cuBLAS bf16 us | prepacked us | check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/${s}_natural_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $NF}' logs/${s}_prepacked_r1.log)
done
cat logs/summary.txt
rm -rf logs/*.log
