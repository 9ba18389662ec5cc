#!/bin/bash
# Session 71, call 1 (any H100 or H200; the GPU's name is in logs/smi.log): the prepacked weight
# (KOrder::Prepacked, mxfp8_prepack_weight) for issue #7's large-M bar.
#  1. GPU tests: the weight-only suite (the new prepacked-weight tests included) and the prepack.
#  2. Issue #7's large weight-only suite, the weight as quantized (natural) against prepacked,
#     two rounds in alternated order; then the mid and decode weight-only suites, one round each.
# Binaries: .device/next/{bench,gpu_tests}.xz (this session's HEAD, sm_90a); carry [".device/next"].
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
for r in 1 2; do
  order="natural prepacked"; [ $r = 2 ] && order="prepacked natural"
  for v in $order; do
    limited 75 /tmp/bench --suite large --iters 20 --mode weight-only --weight-order $v > logs/large_${v}_r$r.log 2>&1
    stamp "large $v r$r rc=$? $(grep -A1 'geometric mean' logs/large_${v}_r$r.log | tail -1)"
  done
done
for s in mid decode; do
  for v in natural prepacked; do
    limited 40 /tmp/bench --suite $s --iters 20 --mode weight-only --weight-order $v > logs/${s}_${v}_r1.log 2>&1
    stamp "$s $v rc=$? $(grep -A1 'geometric mean' logs/${s}_${v}_r1.log | tail -1)"
  done
done
tar czf logs.tgz logs
grep -E '^\[  (FAILED|PASSED)|FAILED' logs/tests_wo.log | head -20
table large natural prepacked
for s in mid decode; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/${s}_natural_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $NF}' logs/${s}_prepacked_r1.log)
done
cat logs/summary.txt
