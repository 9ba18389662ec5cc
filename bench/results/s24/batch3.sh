#!/usr/bin/env bash
# Session 24 batch 3: h2 = the committed build (the coalesced, L2-kept promotion slots; FP32 out
# on the 256-row tiles at any K). GPU suite; memcheck and racecheck of the 256-row long-K tests;
# large and mid suites, both modes; ncu SpeedOfLight + memory of M = 128 x 8192^2 (mid-M lead).
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 300 ./h2/mxgemm_gpu_tests > $OUT/gpu_tests_h2.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_h2.log | head -12
timeout 240 compute-sanitizer --tool memcheck ./h2/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.WideTiles*' > $OUT/memcheck_h2.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_h2.log | head -4
timeout 240 compute-sanitizer --tool racecheck ./h2/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.WideTiles*' > $OUT/racecheck_h2.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck_h2.log | head -4
timeout 200 ./h2/mxgemm_bench --suite large --iters 20 > $OUT/large_mx.log 2>&1 || echo "large mx rc=$?"
timeout 200 ./h2/mxgemm_bench --mode weight-only --suite large --iters 20 > $OUT/large_wo.log 2>&1 || echo "large wo rc=$?"
timeout 100 ./h2/mxgemm_bench --suite mid --iters 20 > $OUT/mid_mx.log 2>&1 || echo "mid mx rc=$?"
timeout 100 ./h2/mxgemm_bench --mode weight-only --suite mid --iters 20 > $OUT/mid_wo.log 2>&1 || echo "mid wo rc=$?"
timeout 120 ncu -k regex:stream_gemm --launch-skip 3 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats ./h2/mxgemm_bench --m 128 --n 8192 --k 8192 --iters 20 --warmup 1 > $OUT/ncu_m128.log 2>&1 || echo "ncu rc=$?"
grep -E "Duration|Throughput|Hit Rate|Busy|stream_gemm" $OUT/ncu_m128.log | head -30
for f in $OUT/large_*.log $OUT/mid_*.log; do echo "$(basename $f)"; awk '$4=="|" && $1+0>0 {print "  ", $1"x"$2"x"$3, $5, $10}' $f; grep -A2 'geometric mean' $f | head -3; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
