#!/bin/bash
# Session 50, call 9 (same binary as call 8, warm): the whole GPU suite.
mkdir -p $OUT; xz -dc .device/next/mxgemm_gpu_tests.xz > /tmp/t && chmod +x /tmp/t && timeout 230 /tmp/t > $OUT/tests.log 2>&1; echo rc=$?; nvidia-smi --query-gpu=name --format=csv,noheader; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" $OUT/tests.log | tail -6
