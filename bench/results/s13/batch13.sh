#!/usr/bin/env bash
# session 13 batch 13: the committed code (the "fix" binary of batch 12): the whole GPU suite
# and memcheck of the streaming kernel's tests.
cd .device
for f in fix/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./fix/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 100 compute-sanitizer --tool memcheck ./fix/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.NanScales*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
