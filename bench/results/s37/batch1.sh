#!/bin/bash
# Session 37 b1: n1 = the 64-row values form's 128-row tiles in K-split clusters where the split
# reduction would run (fill >= 45%: N = 1024 in clusters of 8 too). The cluster and split GPU
# tests; memcheck of the new cluster test; c0 (main, 2921a89) and n1 alternated, two rounds,
# MXFP8 and weight-only at 40 / 64 rows on N in {1024, 2048, 3072, 4096} x K in {4096, 8192}.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1; do xz -dc .device/s37/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
xz -dc .device/s37/n1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
F='*Cluster*:*SplitK*:*WideTiles*'
timeout 120 /tmp/gpu_tests --gtest_filter="$F" > $L/gpu_split.log 2>&1; echo "split tests rc=$?" >> $L/summary.txt
timeout 120 compute-sanitizer --tool memcheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.WideTilesInClustersMatchReference' > $L/memcheck.log 2>&1
echo "memcheck rc=$?" >> $L/summary.txt
S="--m 40,64 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in c0 n1; do
    timeout 60 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1
    timeout 60 /tmp/bench_$v $S --mode weight-only > $L/W_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_split.log | tail -8
grep -E "ERROR SUMMARY|PASSED|FAILED" logs/memcheck.log | tail -3
cat logs/summary.txt
for x in M W; do
echo "$x: M N K | c0 r1, n1 r1, c0 r2, n1 r2 us | cuBLAS bf16 (c0 r1) | fp8 | n1 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${x}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${x}_n1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${x}_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${x}_n1_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${x}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${x}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${x}_n1_r1.log)
done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
