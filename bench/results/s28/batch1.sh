#!/usr/bin/env bash
# Session 28 batch 1: the fp16 values form of E4M3 MXFP8 activations (17+ rows) on the device.
# The whole GPU suite, memcheck of the new form's tests, then the decode, mid and large suites
# with the bf16 values form as the comparison column (--compare-kernel bf16-values: the same
# call on the same inputs, forced into the bf16 form), sustained.
cd .device/s28/${BIN:-c1}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 300 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
timeout 120 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*:GpuStreamFp16Form.WeightScales*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -4
timeout 150 ./mxgemm_bench --suite decode --compare-kernel bf16-values --iters 30 > $OUT/logs/decode.log 2>&1 || echo "decode rc=$?"
timeout 60 ./mxgemm_bench --suite mid --compare-kernel bf16-values --iters 20 > $OUT/logs/mid.log 2>&1 || echo "mid rc=$?"
timeout 110 ./mxgemm_bench --suite large --compare-kernel bf16-values --iters 20 > $OUT/logs/large.log 2>&1 || echo "large rc=$?"
for s in decode mid large; do
  echo "== $s"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/$s.log | head -5
  echo "   M N K: fp16 form us / bf16 form us (ratio) / x cuBLAS bf16 / x floor"
  awk '$4=="|" && $1+0>16 {printf "%sx%sx%s %s/%s(%s) %s %s | ", $1,$2,$3,$5,$20,$22,$10,$25} END{print ""}' $OUT/logs/$s.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
