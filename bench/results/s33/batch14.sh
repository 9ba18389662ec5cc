#!/bin/bash
# Session 33 b14: the GPU test suite on the final library (c4: 9b942f9; the kernel's normal
# build differs from c2's only in the trace-only blocks' braces).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s33/c4/mxgemm_gpu_tests.xz > /tmp/mxgemm_gpu_tests && chmod +x /tmp/mxgemm_gpu_tests
timeout 240 /tmp/mxgemm_gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
cd $OUT && tar czf logs.tgz logs
tail -3 logs/gpu_tests.log; grep -E "FAILED" logs/gpu_tests.log | head
rm -rf logs
