#!/bin/bash
# Session 36 b3: n3 = the K-split clusters in their own kernel instances (kSplitClusters; the
# one-tile-a-CTA instances are SASS-identical to main's again). GPU suite; memcheck and
# racecheck of the cluster tests; c0 (main, 165fc41) against n3, one round, on b2's shapes;
# and at 8 / 16 rows, where the skinny kernel runs, the streaming kernel (now with clusters) in
# the comparison column.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s36/c0/mxgemm_bench.xz > /tmp/bench_c0 && xz -dc .device/s36/n3/mxgemm_bench.xz > /tmp/bench_n3
chmod +x /tmp/bench_c0 /tmp/bench_n3
xz -dc .device/s36/n3/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 240 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
timeout 120 compute-sanitizer --tool memcheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.SplitKInClusters*:GpuWeightOnly.SplitKAmong*' > $L/memcheck.log 2>&1; echo "memcheck rc=$?" >> $L/summary.txt
timeout 120 compute-sanitizer --tool racecheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.SplitKIsTaken*' > $L/racecheck.log 2>&1; echo "racecheck rc=$?" >> $L/summary.txt
A="--m 32 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 16,32 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
R="--m 16,32 --n 8192 --k 8192 --iters 30"
S="--mode weight-only --m 16,32 --n 8192 --k 8192 --iters 30"
for v in c0 n3; do
  for t in A B R S; do timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}.log 2>&1; done
done
timeout 100 /tmp/bench_n3 --m 8,16 --n 1024,2048,4096 --k 4096,8192 --iters 30 --compare-kernel streaming > $L/C_n3.log 2>&1
timeout 100 /tmp/bench_n3 --mode weight-only --m 8,16 --n 1024,2048,4096 --k 4096,8192 --iters 30 --compare-kernel streaming > $L/D_n3.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -8
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" logs/memcheck.log logs/racecheck.log
cat logs/summary.txt
for t in A B R S; do
  echo "$t: M N K | c0, n3 us | cuBLAS bf16, cuBLASLt fp8 us (c0) | n3 check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n3.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8, $16}' logs/${t}_c0.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_n3.log)
done
for t in C D; do
  echo "$t: M N K | mxgemm (skinny) us | streaming (compare column) us | cuBLAS bf16 us"
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $8}' logs/${t}_n3.log
done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
