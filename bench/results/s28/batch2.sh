#!/usr/bin/env bash
# Session 28 batch 2: the whole GPU suite again with RowsBeyondItsSpanTakeTheExactPath fixed
# (NaN payloads compared as NaN; only row 3's tiles are the exact path's), memcheck and
# racecheck of the fp16 form's tests, and the decode suite of weight-only with FP16
# activations (s27's unrun batch 4: the codes form only at 1..4 rows on weights > 2^25).
cd .device/s28/${BIN:-c2}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 300 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
timeout 100 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*:GpuStreamFp16Form.WeightScales*:GpuStreamFp16Form.GivesThe*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -4
timeout 100 compute-sanitizer --tool racecheck ./mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*' > $OUT/logs/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/logs/racecheck.log | head -4
timeout 120 ./mxgemm_bench --mode weight-only-fp16 --suite decode --iters 30 > $OUT/logs/decode_wo_fp16.log 2>&1 || echo "decode rc=$?"
echo "== decode weight-only-fp16"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/decode_wo_fp16.log | head -3
awk '$4=="|" && $1+0>0 && ($2==28672 || $3==28672 || $2==4096 || $2==1024) && $1+0<=16 {printf "%sx%sx%s %s/%s  ", $1,$2,$3,$5,$25} END{print ""}' $OUT/logs/decode_wo_fp16.log
cd $OUT && tar czf logs.tgz logs && rm -rf logs
