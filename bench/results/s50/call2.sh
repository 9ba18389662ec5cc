#!/bin/bash
# Session 50, call 2 (H200, main d4be21f built here): where #4's H200 misses are closest to the bar
# (16 / 32 rows of 8192 x 28672: 1.26x-1.27x the floor in session 49, the K split among a CTA's
# warpgroups), the library's schedule against the 64-row tiles' stream-K (--split-k never) and
# the split forced (always), at 8..64 rows, K = 8192 and 28672, both modes, alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
unpack mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for r in 1 2; do
  for mode in mxfp8 weight-only; do
    for v in auto never always; do
      limited 45 $B --m 8,16,32,64 --n 8192 --k 28672,8192 --iters 30 --mode $mode --split-k $v > $L/S${mode}_${v}_r$r.log 2>&1
      stamp "$mode split-k $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -h "memory floor's bandwidth" logs/*_r1.log | head -2
table Smxfp8 auto never always; table Sweight-only auto never always
cat logs/summary.txt
rm -rf logs
