#!/usr/bin/env bash
# Session 29 batch 8: c5 (main + the pre-pass's fp16 multiply through cuda::mul_by_lane<0, true>
# instead of __hmul2 on reinterpreted words: the same instruction): the whole GPU suite (the
# device time left allowed nothing more).
cd .device/s29/${BIN:-c5}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 170 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -8
cd $OUT && tar czf logs.tgz logs
