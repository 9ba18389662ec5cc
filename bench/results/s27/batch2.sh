#!/usr/bin/env bash
# Session 27 batch 2: the test binary with the outside-window test fixed for the codes form
# at 3 rows (the library is b1's): the weight-only and streaming suites, then the whole suite.
cd .device/s27/c8b
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 330 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/logs/gpu_tests.log | head -12
timeout 120 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Fp16*' > $OUT/logs/memcheck_fp16.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck_fp16.log | head -4
cd $OUT && tar czf logs.tgz logs && rm -rf logs
