#!/bin/bash
# Session 32 b1: what cuBLASLt's fp8 and bf16 kernels do at decode shapes, where they stream
# the weight at ~4.2-4.4 TB/s against this library's ~3.6-3.7 (launch config, cluster, SASS).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s31/c6/mxgemm_bench.xz > /tmp/bench && chmod +x /tmp/bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit --format=csv > $L/smi.log 2>&1
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z,launch__shared_mem_per_block_dynamic,launch__registers_per_thread,lts__t_sector_hit_rate.pct"
for shape in "1 28672 8192" "16 28672 8192" "1 8192 8192"; do
  set -- $shape
  timeout 120 ncu --kernel-name regex:'nvjet|stream_gemm_sm90|skinny_gemm|stream_reduce|prepass' --metrics $M /tmp/bench --m $1 --n $2 --k $3 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_${1}x${2}x${3}.log 2>&1
done
FULL="--section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis --section SourceCounters --page source --print-source sass"
timeout 120 ncu --kernel-name regex:'nvjet_sm90_qq' --launch-skip 1 --launch-count 1 $FULL /tmp/bench --m 1 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/sass_fp8_1x28672x8192.log 2>&1
timeout 120 ncu --kernel-name regex:'nvjet_sm90_qq' --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis /tmp/bench --m 1 --n 8192 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/full_fp8_1x8192x8192.log 2>&1
# The TMA ring spike in cuBLAS-like shapes (64-row tiles, one tile a CTA, several CTAs a SM)
R=.device/s32/spike/ring_stream
{ ./.device/s32/spike/read_floor 64 224
  $R tma:128:128:4:1 tma:256:128:4:1:112 tma:64:128:8:1 tma:64:128:6:3:448 tma:64:128:6:4:448 tma:64:128:4:4:448 tma:64:128:8:2:448 tma:64:64:8:4:448 tma:32:128:8:4:896
  RING_HINT=1 $R tma:128:128:4:1 tma:64:128:6:4:448
  RING_PROMO=0 $R tma:128:128:4:1 tma:64:128:6:4:448
  RING_PROMO=2 $R tma:128:128:4:1 tma:64:128:6:4:448
  RING_N=8192 $R tma:128:128:4:1 tma:64:128:6:4:128 tma:64:128:6:2:128 tma:128:128:4:1:128:2 tma:64:128:8:1:128
  RING_CLUSTER=2 $R tma:128:128:4:1 tma:64:128:6:4:448 tma:64:128:8:1
  RING_N=8192 RING_CLUSTER=2 $R tma:64:128:8:1:128 tma:64:128:6:2:128
} > $L/ring.log 2>&1
# the same rings' kernel durations alone (no launch in the timing), to compare with ncu of the peers
RING_N=8192 timeout 100 ncu --kernel-name ring_kernel --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed $R tma:64:128:8:1:128 tma:128:128:4:1:128:2 > $L/ring_ncu_8192.log 2>&1
timeout 100 ncu --kernel-name ring_kernel --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed $R tma:128:128:4:1 tma:256:128:4:1:112 tma:64:128:6:4:448 > $L/ring_ncu_28672.log 2>&1
cd $OUT && tar czf logs.tgz logs && cat logs/ring.log && rm -rf logs
echo "== summary"
tar xzf $OUT/logs.tgz -O logs/ncu_1x28672x8192.log | grep -E "Context|gpu__time|grid_size|cluster_dim_x|dram__bytes|dram__throughput" | awk 'NR<=400' | uniq | head -60
