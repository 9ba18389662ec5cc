#!/bin/bash
# Session 39 b1 (prepared in session 39, which had no device; run it in the next one that has).
# Binaries (.device/s39, carry it): c0 = main at 0c2987e (session 38's library, and the bench's
# --split-k); w1 = branch s39-whole-boxes at 5270450 (host code only, c0's kernels: the activation
# workspace's map covers a whole tile, rows past M unwritten; 33..63 rows through the workspace
# take the 64-row split in clusters); w3 = the branch at c9caea8 (every one-tile launch reads its
# activation, in place or from the workspace, in TMA boxes of its M rows, the stage's expected
# bytes at run time; 33..64 rows take the split in clusters wherever Auto finds them). GPU suites
# of c0 (never run: session 38 lost the device) and w3, and w1's split and new tests; c0 / w1 /
# w3 alternated, two rounds, MXFP8 at 33 / 48 / 63 rows on N in {1024, 4096} x K in {4096,
# 8192}; and the 64-row one-tile-a-CTA split, which Auto does not take, at 48 / 64 x 8192 x
# {8192, 28672}: c0 as it is, c0 with --split-k always (48 rows with boxes past M), w3 with
# --split-k always.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/common.sh"  # limited, table
for v in c0 w1 w3; do
  xz -dc .device/s39/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
  xz -dc .device/s39/$v/mxgemm_gpu_tests.xz > /tmp/gpu_tests_$v && chmod +x /tmp/gpu_tests_$v
done
limited 200 /tmp/gpu_tests_w3 > $L/gpu_suite_w3.log 2>&1; echo "gpu suite w3 rc=$?" >> $L/summary.txt
# c0's GPU suite left out (session 40): bench/results/s40/batch0.sh runs main's (m40, c0's kernels).
limited 100 /tmp/gpu_tests_w1 --gtest_filter='*Stale*:*TwoWarpgroup*:*SplitK*:*Cluster*:*WideTiles*' > $L/gpu_split_w1.log 2>&1
echo "gpu split tests w1 rc=$?" >> $L/summary.txt
S="--m 33,48,63 --n 1024,4096 --k 4096,8192 --iters 30"
E="--m 48,64 --n 8192 --k 8192,28672 --iters 30"
for round in 1 2; do
  for v in c0 w1 w3; do limited 50 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1; done
  limited 30 /tmp/bench_c0 $E > $L/E_c0_r$round.log 2>&1
  limited 30 /tmp/bench_c0 $E --split-k always > $L/E_c0a_r$round.log 2>&1
  limited 30 /tmp/bench_w3 $E --split-k always > $L/E_w3a_r$round.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
for f in gpu_suite_w3 gpu_split_w1; do echo "== $f"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/$f.log | tail -8; done
cat logs/summary.txt
table M c0 w1 w3
table E c0 c0a w3a  # c0, c0 --split-k always, w3 --split-k always
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
