#!/bin/bash
# Session 49, call 6 (H200, warm, the bench binary of call 3): ncu of one launch each, clocks not
# locked, weight-only 4096 x 8192^2: cuBLAS bf16's kernel (the 4th nvjet launch: the start-up
# check runs three) and the streaming kernel (its 4th launch); then both again with the warp and
# scheduler sections. (Run as three commands; joined here.)
mkdir -p $OUT/logs; B=/tmp/bench; [ -x $B ] || (xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B)
A="--m 4096 --n 8192 --k 8192 --iters 20 --warmup-ms 0 --mode weight-only"
timeout 200 ncu --clock-control none --kernel-name regex:'nvjet|xmma|cutlass' --launch-skip 3 --launch-count 1 --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis $B $A > $OUT/logs/ncu_cublas.log 2>&1
timeout 200 ncu --clock-control none --kernel-name regex:'stream_gemm' --launch-skip 3 --launch-count 1 --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats $B $A > $OUT/logs/ncu_ours.log 2>&1
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
timeout 120 ncu --clock-control none --kernel-name regex:'nvjet|xmma|cutlass' --launch-skip 3 --launch-count 1 $S $B $A > $OUT/logs/ncu_cublas_warps.log 2>&1
timeout 120 ncu --clock-control none --kernel-name regex:'stream_gemm' --launch-skip 3 --launch-count 1 $S $B $A > $OUT/logs/ncu_ours_warps.log 2>&1
