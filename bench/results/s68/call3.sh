#!/bin/bash
# Session 68, call 3 (and later tries): call 2's H200 branch (issue #7's large-M bar and #3's mid
# bars on main's build: large then mid suites, weight-only and MXFP8, then the stream /
# weight-only GPU tests). On an H100 it stops at once: calls 1 and 2 did the H100's work.
# Carry [".device/s67/gpu_tests2.xz", ".device/s67/bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $OUT/smi.log
grep -q H200 $OUT/smi.log || { echo "not an H200: stopped"; exit 0; }
exec bash bench/results/s68/call2.sh
