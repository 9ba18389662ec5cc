#!/usr/bin/env bash
# Session 27 batch 4: FP16 activations take the codes form only up to 4 rows on weights of
# more than 2^25 elements (b3 found it 10-27% slower on the 8 and 16 MB weights). The whole
# GPU suite, memcheck of the FP16 weight-only tests, then the decode suite in both
# weight-only modes, same binary, sustained.
cd .device/s27/c4
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 330 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
timeout 150 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Fp16*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -4
for mode in weight-only weight-only-fp16; do
  timeout 150 ./mxgemm_bench --mode $mode --suite decode --iters 30 > $OUT/logs/decode_$mode.log 2>&1 || echo "decode $mode rc=$?"
done
for mode in weight-only weight-only-fp16; do
  echo "== decode $mode"; grep -E "over [0-9]+ shapes|checks" $OUT/logs/decode_$mode.log | head -5
done
paste <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/logs/decode_weight-only.log) <(awk '$4=="|" && $1+0>0 {print $5, $25}' $OUT/logs/decode_weight-only-fp16.log) | awk '$1 ~ /^(1|2|4|8|16)x/ {printf "%s %s/%s %s/%s | ", $1,$2,$3,$4,$5} END{print ""}'
cd $OUT && tar czf logs.tgz logs && rm -rf logs
