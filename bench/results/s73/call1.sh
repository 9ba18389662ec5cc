#!/bin/bash
# Session 73, call 1 (any H100 or H200; the GPU's name is in logs/smi.log), binaries built from
# 7071da1 (sm_90a) in .device/next/{bench,gpu_tests}.xz; carry [".device/next"].
#  1. GPU tests: the weight-only suite and the prepack (7071da1's host fix to the row ranges'
#     flags was compiled, not run), then the whole GPU suite.
#  2. Decode weight-only suite, skinny against streaming on the same weight, as quantized and
#     prepacked: the mxgemm column is the library's choice, the comparison column the streaming
#     kernel (--compare-kernel streaming) on the same weight order (--compare-weight-order).
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
for v in prepacked natural; do
  limited 90 /tmp/bench --suite decode --iters 20 --mode weight-only --weight-order $v \
    --compare-kernel streaming --compare-weight-order $v > logs/decode_${v}.log 2>&1
  stamp "decode $v vs streaming rc=$? $(grep -A1 'geometric mean' logs/decode_${v}.log | tail -1)"
done
limited 260 /tmp/gpu_tests > logs/full_suite.log 2>&1
stamp "full GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' logs/full_suite.log | tr '\n' ' ')"
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/tests_wo.log logs/full_suite.log | head -20
for v in prepacked natural; do
  echo "== decode $v: M N K | mxgemm us | cuBLAS bf16 us | streaming us | streaming/mxgemm | check"
  awk '$1 ~ /^[0-9]+$/ && NF > 20 && $1 <= 16 {print $1, $2, $3, $5, $8, $20, $22, $NF}' logs/decode_${v}.log
done
cat logs/summary.txt
rm -rf logs/*.log
