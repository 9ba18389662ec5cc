#!/usr/bin/env bash
# Session 31 batch 5: the committed GPU test binary (the exactness probes' helpers) on the
# device: the whole suite, then memcheck of the tests the helpers serve.
B=.device/s31/${BIN:-c5}
(cd $B && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done)
mkdir -p $OUT/logs
timeout 300 $B/mxgemm_gpu_tests > $OUT/logs/gpu.log 2>&1; echo "gpu rc=$?"; tail -2 $OUT/logs/gpu.log
grep -E "^\[  FAILED" $OUT/logs/gpu.log | head
timeout 150 compute-sanitizer --tool memcheck $B/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Bf16*:GpuWeightOnly.CodesForm*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "PASSED|FAILED|ERROR SUMMARY" $OUT/logs/memcheck.log | tail -3
cd $OUT && tar czf logs.tgz logs && rm -rf logs
