#!/bin/bash
# Session 71, call 4 (any H100 or H200): the skinny kernel's prepacked-weight instances (the
# commit that adds this script), then timing.
#  1. GPU tests: the weight-only, skinny and prepack tests.
#  2. On an H200 only: issue #7's large weight-only suite, natural against prepacked, two rounds
#     alternated (the H100's came in calls 1 and 3).
#  3. The decode and mid weight-only suites, natural against prepacked, one round each.
# Binaries: .device/next/{bench,gpu_tests}.xz rebuilt with the skinny instances; carry [".device/next"].
# BUDGET (default 540) caps the whole call.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
unpack bench gpu_tests
limited 150 /tmp/gpu_tests --gtest_filter='GpuWeightOnly.*:GpuPrepack.*:GpuSkinny*' > $L/tests.log 2>&1
stamp "tests GpuWeightOnly+GpuPrepack+GpuSkinny rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests.log | tr '\n' ' ')"
cd $OUT
if grep -q H200 logs/smi.log; then
  for r in 1 2; do
    order="natural prepacked"; [ $r = 2 ] && order="prepacked natural"
    for v in $order; do
      limited 75 /tmp/bench --suite large --iters 20 --mode weight-only --weight-order $v > logs/large_${v}_r$r.log 2>&1
      stamp "large $v r$r rc=$? $(grep -A1 'geometric mean' logs/large_${v}_r$r.log | tail -1)"
    done
  done
fi
for s in decode mid; do
  for v in natural prepacked; do
    limited 75 /tmp/bench --suite $s --iters 20 --mode weight-only --weight-order $v > logs/${s}_${v}_r1.log 2>&1
    stamp "$s $v rc=$? $(grep -A1 'geometric mean' logs/${s}_${v}_r1.log | tail -1)"
  done
done
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/tests.log | head
grep -q H200 logs/smi.log && table large natural prepacked
for s in mid decode; do
  echo "== $s: M N K | natural us | cuBLAS bf16 us | prepacked us | check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/${s}_natural_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $NF}' logs/${s}_prepacked_r1.log)
done
cat logs/summary.txt
rm -rf logs/*.log
