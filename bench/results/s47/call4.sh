#!/bin/bash
# Session 47, device call 4 (prepared, NOT RUN: no machine started from 14:04 to 14:55 UTC and the
# budget ran out; for the next session): main after the merge of s47-wo-192 (the binary of call3,
# rebuild it as call2.sh says: git-ignored binaries do not survive a new checkout). Second
# rounds and other weights for the 192-row rule: never against auto, two rounds, MXFP8 and
# weight-only, N = 8192 / 28672 at K = 8192 and K = 28672 at N = 8192. Carry [".device/s47"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-500}
: > $L/summary.txt
B=/tmp/bench
xz -dc .device/s47/mxgemm_bench.xz > $B && chmod +x $B
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
A="--m 160,384,576 --n 8192,28672 --k 8192 --iters 20"
K="--m 160,384 --n 8192 --k 28672 --iters 20"
for r in 1 2; do
  for v in never auto; do
    limited 45 $B $A --width-192 $v > $L/A_${v}_r$r.log 2>&1; stamp "A mxfp8 $v r$r rc=$?"
    limited 45 $B $A --mode weight-only --width-192 $v > $L/AW_${v}_r$r.log 2>&1; stamp "A weight-only $v r$r rc=$?"
    limited 30 $B $K --width-192 $v > $L/K_${v}_r$r.log 2>&1; stamp "K mxfp8 $v r$r rc=$?"
    limited 30 $B $K --mode weight-only --width-192 $v > $L/KW_${v}_r$r.log 2>&1; stamp "K weight-only $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
table A never auto
table AW never auto
table K never auto
table KW never auto
cat logs/summary.txt
rm -rf logs
