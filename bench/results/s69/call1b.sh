#!/bin/bash
# Session 69, call 1b: run inline on the same warm H200 right after call 1 (whose whole GPU suite
# ran out of BUDGET after 27 tests), written down here afterwards; the command as it ran:
# the stream-kernel and weight-only GPU tests of main's build. Carry [".device/s69/gpu_tests.xz"].
mkdir -p $OUT/logs; xz -dc .device/s69/gpu_tests.xz > /tmp/t && chmod +x /tmp/t && nvidia-smi -L; timeout 200 /tmp/t --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $OUT/logs/tests_stream.log 2>&1; echo rc=$?; grep -cE '^\[       OK \]' $OUT/logs/tests_stream.log; grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]|FAILED' $OUT/logs/tests_stream.log | head
