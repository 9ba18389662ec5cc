#!/bin/bash
# Session 36 b2: n2 = the K-split clusters sized to what the device runs at once
# (split_k_cluster_ctas with cudaOccupancyMaxActiveClusters, 70% fill), against c0 = main
# (165fc41, built from its own tree this time; b1's "c0" was n1 itself). Split GPU tests, then
# two alternated rounds: MXFP8 32 rows and weight-only 16 / 32 rows at N in {1024, 2048, 3072,
# 4096} x K in {4096, 8192}; 8192^2 at 16 / 32 rows both modes (the one-tile-a-CTA split).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s36/c0/mxgemm_bench.xz > /tmp/bench_c0 && xz -dc .device/s36/n1/mxgemm_bench.xz > /tmp/bench_n2
chmod +x /tmp/bench_c0 /tmp/bench_n2
xz -dc .device/s36/n1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 200 /tmp/gpu_tests --gtest_filter='*SplitK*:GpuStreamFp16Form.GivesTheBf16FormsBits' > $L/split_tests.log 2>&1; echo "split tests rc=$?" >> $L/summary.txt
A="--m 32 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 16,32 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
R="--m 16,32 --n 8192 --k 8192 --iters 30"
S="--mode weight-only --m 16,32 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 n2; do
    for t in A B R S; do timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1; done
  done
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/split_tests.log | head -20
cat logs/summary.txt
for t in A B R S; do
  echo "$t: M N K | c0 r1, n2 r1, c0 r2, n2 r2 us | cuBLAS bf16, cuBLASLt fp8 us (c0 r1) | n2 check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8, $16}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_n2_r1.log)
done
grep -c "all checks passed" logs/*_r*.log | tr '\n' ' '; echo
rm -rf logs
