#!/bin/bash
# Session 68, call 5: the DSMEM exchange spike (bench/spike/dsmem_exchange.cu, built here with
# `nvcc -std=c++17 -O3 -arch=sm_90a -o .device/s68/dsmem_exchange bench/spike/dsmem_exchange.cu`):
# how fast the paired-halves epilogue's 32 / 64 KB swap can go (pull as main, one-way pull, push,
# bulk copy, local floor). Then, on an H200 only, call 2 (issue #7's and #3's suites).
# Carry [".device/s68/dsmem_exchange", ".device/s67/gpu_tests2.xz", ".device/s67/bench.xz"].
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $OUT/smi.log
timeout 60 .device/s68/dsmem_exchange 2>&1 | tee $OUT/dsmem_exchange.log
echo "dsmem_exchange rc=${PIPESTATUS[0]}"
grep -q H200 $OUT/smi.log && exec bash bench/results/s68/call2.sh
exit 0
