#!/bin/bash
# Session 32 b2: ring depth. cuBLASLt's fp8 kernel at 1 x 28672 x 8192 (b1) keeps 12 stages of
# 128 x 128 B (192 KB) in flight per SM and reaches 85% of DRAM; this library keeps 4 of 32 KB.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s32/spike/ring_stream
xz -dc .device/s31/c6/mxgemm_bench.xz > /tmp/bench && chmod +x /tmp/bench
{ $R tma:128:128:4:1 tma:128:128:6:1 tma:128:128:8:1 tma:128:128:10:1 tma:128:128:12:1 tma:256:128:4:1 tma:256:128:5:1 tma:256:128:6:1 tma:256:128:4:1:112 tma:256:128:6:1:112 tma:128:128:12:1 tma:128:128:4:1
  RING_CLUSTER=2 $R tma:128:128:12:1 tma:128:128:8:1
  RING_HINT=1 $R tma:128:128:12:1 tma:256:128:6:1:112
  RING_N=8192 $R tma:64:128:8:1:128 tma:64:128:12:1:128 tma:64:128:16:1:128 tma:64:128:24:1:128 tma:128:128:12:1:128:2 tma:128:128:4:1:128:2 tma:64:128:8:1:128
} > $L/ring_depth.log 2>&1
NC="ncu --clock-control none --kernel-name ring_kernel --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
timeout 100 $NC $R tma:128:128:4:1 tma:128:128:8:1 tma:128:128:12:1 tma:256:128:4:1:112 tma:256:128:6:1:112 > $L/ring_ncu_28672.log 2>&1
RING_N=8192 timeout 100 $NC $R tma:64:128:8:1:128 tma:64:128:16:1:128 tma:64:128:24:1:128 > $L/ring_ncu_8192.log 2>&1
M="gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size"
for mode in mxfp8 weight-only; do
  timeout 120 ncu --clock-control none --kernel-name regex:'nvjet|stream_gemm_sm90|skinny_gemm' --metrics $M /tmp/bench --mode $mode --m 1,16 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_${mode}_28672.log 2>&1
  timeout 120 ncu --clock-control none --kernel-name regex:'nvjet|stream_gemm_sm90|skinny_gemm' --metrics $M /tmp/bench --mode $mode --m 1,16 --n 8192 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_${mode}_8192.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
cat logs/ring_depth.log
for f in logs/ring_ncu_*.log; do echo "== $f"; awk '/gpu__time/{t=$NF} /dram__thr/{printf "%s/%s ", t, $NF} END{print ""}' $f; done
for f in logs/ncu_*.log; do echo "== $f"; awk '/Context/{n=substr($0,1,50)} /gpu__time/{t=$NF} /dram__thr/{d=$NF} /grid_size/{print n, t, d}' $f | sort | awk '{k=$1" "$2" "$3; c[k]++; s[k]=s[k]" "$(NF-1)} END{for (k in c) print k, c[k], s[k]}' | cut -c1-250; done
rm -rf logs
