#!/bin/bash
# Session 66, call 1: on an H200, session 65's call 3 (main's kernels, the suites that settle
# issue #7's large-M bar on the H200, BUDGET 280) and then its call 4 (the trace build's large-M
# breakdown: the epilogue's share, BUDGET 290); on an H100, call 4 alone (BUDGET 420), since
# session 65 timed the suites there three times. Each writes under $OUT/retime or $OUT/trace.
# Carry [".device/s64/mxgemm_bench.xz", ".device/s65/mxgemm_bench_trace.xz"].
set -u
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "GPU: $GPU"
if [[ $GPU == *H200* ]]; then
  OUT=$OUT/retime BUDGET=280 bash bench/results/s65/call3.sh
  OUT=$OUT/trace BUDGET=290 bash bench/results/s65/call4.sh
else
  OUT=$OUT/trace BUDGET=420 bash bench/results/s65/call4.sh
fi
