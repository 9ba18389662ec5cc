#!/usr/bin/env bash
# Session 28 batch 4: the committed tests (RowsBeyondItsSpanTakeTheExactPath as landed: row 4's
# quantizer-like block 22 below its top bitwise the bf16 form's, row 9's block of 2^-9 codes only
# within the tolerance, its margin printed): the whole GPU suite, memcheck and racecheck of the
# fp16 form's tests, then a second round of the decode suite against the bf16 form.
cd .device/s28/${BIN:-c4}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 300 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
grep -E "row 9" $OUT/logs/gpu_tests.log | head -4
timeout 100 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*:GpuStreamFp16Form.WeightScales*:GpuStreamFp16Form.GivesThe*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -4
timeout 100 compute-sanitizer --tool racecheck ./mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*' > $OUT/logs/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|PASSED|FAILED" $OUT/logs/racecheck.log | head -4
timeout 150 ./mxgemm_bench --suite decode --compare-kernel bf16-values --iters 30 > $OUT/logs/decode.log 2>&1 || echo "decode rc=$?"
echo "== decode"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/decode.log | head -5
echo "   M N K: fp16 form us / bf16 form us (ratio) / x cuBLAS bf16 / x floor"
awk '$4=="|" && $1+0>16 {printf "%sx%sx%s %s/%s(%s) %s %s | ", $1,$2,$3,$5,$20,$22,$10,$25} END{print ""}' $OUT/logs/decode.log
cd $OUT && tar czf logs.tgz logs && rm -rf logs
