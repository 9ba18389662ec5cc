#!/usr/bin/env bash
# Session 28 batch 6: the review's test refactor (expect_weight_scales_take_exact_path shared by
# two tests, the fp16 form's split-tile shapes folded into SplitTilesSumDeterministically, the
# scale options moved to gemm_test_utils.hpp): the whole GPU suite.
cd .device/s28/${BIN:-c6}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 300 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
cd $OUT && tar czf logs.tgz logs && rm -rf logs
