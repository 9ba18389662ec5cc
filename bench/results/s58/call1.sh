#!/bin/bash
# Session 58, call 1. Carry [".device/s57", ".device/s57b", ".device/s58"].
# (S) the row-blocks spike (bench/spike/row_blocks.cu, built from main 03b29e4:
#     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I src -I include -I bench/spike
#     -o build-spike/row_blocks bench/spike/row_blocks.cu) on this GPU: it ran on an H100 only
#     (session 47). The 256 x 128 tile (the lead of session 57) against the 128-row tile's
#     mainloop, streamed and math only.
# Then session 57's next2.sh (the ring premise; on an H200 the weight-only decode suite).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-500}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 60 .device/s58/row_blocks 8192 > $L/row_blocks_8192.log 2>&1; stamp "row_blocks 8192 rc=$?"
limited 60 .device/s58/row_blocks 8192 > $L/row_blocks_8192_r2.log 2>&1; stamp "row_blocks 8192 r2 rc=$?"
OUT=$OUT/n2 BUDGET=$((BUDGET - SECONDS)) bash bench/results/s57/next2.sh
echo "== row_blocks spike"; grep "^|" $L/row_blocks_8192*.log
cat $L/summary.txt
