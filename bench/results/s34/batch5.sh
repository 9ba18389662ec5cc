#!/bin/bash
# Session 34 b5: ncu of one launch each, main (c0) against the scale helpers (h4), weight-only
# 64 x 28672 x 8192: instruction counts, issue and warp stall reasons (clocks left alone).
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 h4; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
for v in c0 h4; do
  timeout 200 ncu --clock-control none --kernel-name regex:'stream_gemm_sm90' --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section SchedulerStats \
    --section WarpStateStats --section LaunchStats \
    /tmp/bench_$v --mode weight-only --m 64 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_$v.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
for v in c0 h4; do
  echo "== $v"
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Warp Cycles Per Issued Instruction|Avg. Active Threads Per Warp|SM Frequency|Registers Per Thread" logs/ncu_$v.log | head -16
done
rm -rf logs
