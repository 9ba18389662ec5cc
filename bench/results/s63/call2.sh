#!/bin/bash
# Session 63, call 2 (run inline then, saved here as run): main b5e7977's GPU suite and memcheck on
# the tests that promote into the 256-row tiles' slot, on the H200. Binary: session 62's
# .device/s62/mxgemm_gpu_tests_slot.xz (main's device code). Carry [".device/s62"].
mkdir -p $OUT/logs; xz -dc .device/s62/mxgemm_gpu_tests_slot.xz > /tmp/t && chmod +x /tmp/t
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
SECONDS=0
timeout 300 /tmp/t > $OUT/logs/tests.log 2>&1; echo "suite rc=$? t=$SECONDS"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/t \
  --gtest_filter='GpuStreamGemm.WideTilesAndLongKMatchReference:GpuWeightOnly.PromotedSums*' > $OUT/logs/memcheck.log 2>&1
echo "memcheck rc=$? t=$SECONDS"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $OUT/logs/tests.log | tail -8
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | tail -4
