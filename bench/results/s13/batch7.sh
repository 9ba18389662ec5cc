#!/usr/bin/env bash
# session 13 batch 7: the committed code (main + a static_assert): the GPU suite, then where
# the time goes at 1024 x 8192 x 8192 MXFP8 (the pre-pass path, main's kernels): per-kernel
# durations and per-SASS stall samples of the streaming kernel.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 240 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 120 ncu --kernel-name regex:"activation_values|stream_gemm_sm90" --launch-skip 10 --launch-count 4 --section SpeedOfLight \
  ./new/mxgemm_bench --m 1024 --n 8192 --k 8192 --iters 20 > $OUT/durations.txt 2>&1; echo "ncu durations rc=$?"
grep -E "activation_values|stream_gemm_sm90|Duration|SM Frequency" $OUT/durations.txt | sed 's/(CUtensorMap.*//' | head -16
timeout 200 ncu --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --page source --print-source sass --csv \
  ./new/mxgemm_bench --m 1024 --n 8192 --k 8192 --iters 20 > $OUT/sass_1024.csv 2>$OUT/ncu_err.txt; echo "ncu sass rc=$?"
xz -T4 -6 $OUT/sass_1024.csv
