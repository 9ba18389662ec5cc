#!/bin/bash
# Session 36 b1: n1 = the K-split clusters (StreamSchedule::k_split). Cluster occupancy probe;
# GPU tests of the split schedules first, then the whole GPU suite; memcheck of the cluster
# tests; then one round of c0 (main at 165fc41) against n1 on 16 / 32 rows of the 8 and 16 MB
# weights (and 2048 x K), both modes.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1; do xz -dc .device/s36/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s36/n1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $L/gpu.txt 2>&1
.device/s36/cluster_occupancy > $L/occupancy.log 2>&1
F='*SplitK*:GpuStreamFp16Form.GivesTheBf16FormsBits'
timeout 200 /tmp/gpu_tests --gtest_filter="$F" > $L/split_tests.log 2>&1; echo "split tests rc=$?" >> $L/summary.txt
timeout 240 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
timeout 150 compute-sanitizer --tool memcheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.SplitKInClusters*' > $L/memcheck.log 2>&1; echo "memcheck rc=$?" >> $L/summary.txt
A="--m 16,32 --n 1024,2048,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 16,32 --n 1024,2048,4096 --k 4096,8192 --iters 30"
if grep -q "PASSED" $L/split_tests.log && ! grep -q "FAILED" $L/split_tests.log; then
  for v in c0 n1; do
    timeout 90 /tmp/bench_$v $A > $L/A_${v}_r1.log 2>&1
    timeout 90 /tmp/bench_$v $B > $L/B_${v}_r1.log 2>&1
  done
fi
cd $OUT && tar czf logs.tgz logs
cat logs/occupancy.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/split_tests.log | head -20
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -12
grep -E "ERROR SUMMARY" logs/memcheck.log
cat logs/summary.txt
for t in A B; do
  [ -f logs/${t}_n1_r1.log ] || continue
  echo "$t: M N K | c0, n1 us | cuBLAS bf16, cuBLASLt fp8 us (c0) | n1 check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8, $16}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_n1_r1.log)
done
grep -c "all checks passed" logs/*_r1.log | tr '\n' ' '; echo
rm -rf logs
