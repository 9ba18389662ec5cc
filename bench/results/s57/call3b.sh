#!/bin/bash
# Session 57, call 3b (run as one command line on the warm H100 after call 3; its output is quoted
# in README.md, no logs kept): call 3's ablation was not valid for the fp16 values form (every
# scale byte 127 sends its tiles to the exact path: 2x slower, checks fail), so the same two
# binaries in the bf16 values form (weight-only, --mx-values bf16), 128 / 192 x 8192 / 28672 x
# 8192, two rounds alternated. Carry [".device/s57", ".device/s57c"].
set -u; mkdir -p $OUT
xz -dc .device/s57/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
xz -dc .device/s57c/mxgemm_bench_abl.xz > /tmp/abl && chmod +x /tmp/abl
for r in 1 2; do for v in main abl; do echo "== $v r$r"; /tmp/$v --m 128,192 --n 8192,28672 --k 8192 --iters 20 --mode weight-only --mx-values bf16 2>&1 | grep -E "^ +(128|192) +" | cut -c1-75; done; done
