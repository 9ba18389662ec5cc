#!/bin/bash
# Session 46, the one-call batch for branch s46-row-blocks (main + session 42's padded workspace
# and 192-row width + the row blocks rebuilt this session), each feature timed against main's
# choice in the same binary, around the build's whole GPU suite:
#   R  --row-blocks never|auto: 65 / 96 / 128 rows in 128-row tiles | row blocks (256 x 128)
#   Y  --width-192 never|auto: 129..192 rows in 256-row tiles | 192-row tiles
#   P  --padded-ws never|auto: the pre-pass's activation in M rows | padded to whole tiles
# Two rounds of R and Y, one of P and of weight-only R, then the GPU suite. Carry
# [".device/s46/rb"]. Summary last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-570}
: > $L/summary.txt
B=/tmp/bench_rb T=/tmp/gpu_tests_rb
xz -dc .device/s46/rb/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s46/rb/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
R="--m 65,96,128 --n 4096,8192,28672 --k 8192 --iters 20"
Y="--m 129,160,192,256 --n 8192 --k 8192 --iters 20"
P="--m 300,600,1000,2100 --n 8192 --k 8192 --iters 20"
# Most wanted first (limited() cuts the tail at BUDGET): the row blocks against main's tiles,
# their tests, the 192-row width, the padded workspace, round 2, weight-only, then the rest of
# the GPU suite.
for v in never auto; do limited 40 $B $R --row-blocks $v > $L/R_${v}_r1.log 2>&1; stamp "R $v r1 rc=$?"; done
limited 45 $T --gtest_filter='*RowBlocks*' > $L/tests_rb.log 2>&1; stamp "GPU row-blocks tests rc=$?"
for v in never auto; do limited 25 $B $Y --width-192 $v > $L/Y_${v}_r1.log 2>&1; stamp "Y $v r1 rc=$?"; done
for v in never auto; do limited 30 $B $P --padded-ws $v > $L/P_${v}_r1.log 2>&1; stamp "P $v r1 rc=$?"; done
for v in never auto; do limited 40 $B $R --row-blocks $v > $L/R_${v}_r2.log 2>&1; stamp "R $v r2 rc=$?"; done
for v in never auto; do limited 25 $B $Y --width-192 $v > $L/Y_${v}_r2.log 2>&1; stamp "Y $v r2 rc=$?"; done
for v in never auto; do cp $L/P_${v}_r1.log $L/P_${v}_r2.log; done
for v in never auto; do
  limited 30 $B --m 65,128 --n 8192,28672 --k 8192 --iters 20 --mode weight-only --row-blocks $v > $L/W_${v}_r1.log 2>&1
  stamp "W $v rc=$?"; cp $L/W_${v}_r1.log $L/W_${v}_r2.log
done
# (The row blocks' tests apart, above, so that a hang there cannot take the rest of the suite with it.)
limited 210 $T --gtest_filter='-*RowBlocks*' > $L/tests_full.log 2>&1; stamp "GPU suite (all but row blocks) rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -14
echo "== row-blocks tests"; grep -E "^\[  (PASSED|FAILED|      OK) |^\[  FAILED|tests ran|Failure" logs/tests_rb.log | tail -14
table R never auto
echo "(weight-only: one round, repeated in the r2 columns)"; table W never auto
table Y never auto
echo "(one round, repeated)"; table P never auto
cat logs/summary.txt
rm -rf logs
