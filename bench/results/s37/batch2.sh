#!/bin/bash
# Session 37 b2: n2 = n1 for MXFP8 activations only (the permuted K order), on weights below
# 2^25 elements. n2's GPU suite; racecheck of the new cluster test; c0 (main) and n2
# alternated, two rounds, MXFP8 at 33 / 48 / 64 rows on N in {1024, 2048, 3072, 4096} x K in
# {4096, 8192}; n2's MXFP8 decode suite.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n2; do xz -dc .device/s37/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
xz -dc .device/s37/n2/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 200 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
timeout 90 compute-sanitizer --tool racecheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.WideTilesInClustersMatchReference' > $L/racecheck.log 2>&1
echo "racecheck rc=$?" >> $L/summary.txt
S="--m 33,48,64 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in c0 n2; do timeout 70 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1; done
done
timeout 110 /tmp/bench_n2 --suite decode --iters 30 > $L/decode_mxfp8.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -8
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" logs/racecheck.log | tail -3
cat logs/summary.txt
echo "M: M N K | c0 r1, n2 r1, c0 r2, n2 r2 us | cuBLAS bf16 (c0 r1) | fp8 | n2 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_n2_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/M_n2_r1.log)
echo "== decode_mxfp8 (M N K us bf16us ratio fp8us ratio xfloor)"
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $10, $16, $18, $25}' logs/decode_mxfp8.log | grep -E " (1024|4096) "
grep -A4 "geometric mean" logs/decode_mxfp8.log
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
