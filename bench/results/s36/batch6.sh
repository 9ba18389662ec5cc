#!/bin/bash
# Session 36 b6: the GPU suite of the final commit (a4cd169: host-side cleanup; every kernel's
# SASS as in nF).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s36/final/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 240 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -6
cat logs/summary.txt
rm -rf logs
