#!/usr/bin/env bash
# session 10 batch F: split reduction as committed (no knobs): GPU suite, sanitizers, decode suites vs main a1d7d88
cd .device
timeout 170 ./split/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
for v in split main; do
  timeout 150 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1; echo "$v mx rc=$?"
  timeout 150 ./$v/mxgemm_bench --suite decode --iters 30 --mode weight-only > $OUT/decode_wo_$v.log 2>&1; echo "$v wo rc=$?"
done
for mode in mx wo; do
  echo "== $mode: shape, main us, split us, split/cuBLAS bf16, split x floor"
  paste <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $1"x"$2"x"$3, $5}' $OUT/decode_${mode}_main.log) \
        <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $5, $10, $25}' $OUT/decode_${mode}_split.log) | awk '{d=$2-$3; if (d>0.3||d<-0.3) print}'
  grep -A3 "geometric mean" $OUT/decode_${mode}_main.log | head -3; grep -A3 "geometric mean" $OUT/decode_${mode}_split.log | head -3
done
timeout 150 compute-sanitizer --tool memcheck ./split/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Split*:GpuGemm.ScalesOutside*:GpuWeightOnly.SmallM*:GpuWeightOnly.WeightScalesOutside*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 100 compute-sanitizer --tool racecheck ./split/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
