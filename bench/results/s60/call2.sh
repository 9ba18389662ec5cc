#!/bin/bash
# Session 60, call 2 (the same warm H100 as call 1): the 41 GPU-suite cases call 1's 200-second
# limit cut off (QuantizeSweep columnwise cases; the quantizers are unchanged), on the hi build.
# Carry [".device/s60"].
xz -dc .device/s60/mxgemm_gpu_tests_hi.xz > /tmp/t && chmod +x /tmp/t && timeout 230 /tmp/t --gtest_filter='AllCombinations/QuantizeSweep.ColumnwiseMatchesCpuBitwise/4096x4096_bf16*:AllCombinations/QuantizeSweep.ColumnwiseMatchesCpuBitwise/4096x4096_fp16*:AllCombinations/QuantizeSweep.ColumnwiseMatchesCpuBitwise/4096x4096_fp32_e5m2_rceil_linear:AllCombinations/QuantizeSweep.ColumnwiseMatchesCpuBitwise/7x16*' > $OUT/rest.log 2>&1; echo rc=$?; grep -E "^\[  (PASSED|FAILED) |tests? ran|^\[  FAILED" $OUT/rest.log | head
