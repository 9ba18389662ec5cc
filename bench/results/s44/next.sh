#!/bin/bash
# For a session with a device (prepared in session 44, which had none; not yet run): the three
# unrun branches merged into one build, `s44-candidates` (.device/s44/cand), each switchable in
# the benchmark's mxgemm column so that one binary times it against main's choice in one run:
#   R/W  s43-row-blocks: two 64-row weight blocks a warpgroup for one tile of 65..128 rows
#        (--row-blocks 1 = main's 128-row tiles, 2 = stream-K schedule, 2c = K-split clusters);
#   Y    s42-m192: a 192-row width for 129..192 rows (--width-192 never = main's 256-row tiles);
#   P    s42-padded-ws: the pre-pass's activation padded to whole tiles in the workspace
#        (--padded-ws never = main's M rows).
# Every other kernel is main's (SASS compared instruction for instruction, session 44). Then the
# build's whole GPU suite (about 150 s: 142 s for main's 300 tests in session 41). The sanitizers
# and the Python suite follow in a second call before anything lands (next_suite.sh).
# Carry [".device/s44/cand"] (about 13 MB). Summary tables last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-570}
: > $L/summary.txt
B=/tmp/bench_cand T=/tmp/gpu_tests_cand
xz -dc .device/s44/cand/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s44/cand/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
R="--m 65,96,128 --n 4096,8192,28672 --k 8192 --iters 20"
Y="--m 129,160,192 --n 8192 --k 8192 --iters 20"
P="--m 300,512,600,1000,2048,2100 --n 8192 --k 8192 --iters 20"
bench_round() {
  local round=$1 v
  for v in 1 2 2c; do limited 45 $B $R --row-blocks $v > $L/R_rb${v}_r$round.log 2>&1; stamp "R rb$v r$round rc=$?"; done
  for v in auto never; do limited 25 $B $Y --width-192 $v > $L/Y_${v}_r$round.log 2>&1; stamp "Y $v r$round rc=$?"; done
  for v in auto never; do limited 40 $B $P --padded-ws $v > $L/P_${v}_r$round.log 2>&1; stamp "P $v r$round rc=$?"; done
}
bench_round 1
limited 220 $T > $L/tests_full.log 2>&1; stamp "GPU suite rc=$?"
bench_round 2
for v in 1 2 2c; do
  limited 45 $B $R --row-blocks $v --mode weight-only > $L/W_rb${v}_r1.log 2>&1; stamp "W rb$v rc=$?"
  cp $L/W_rb${v}_r1.log $L/W_rb${v}_r2.log  # (one round: the table repeats it)
done
for v in auto never; do
  limited 25 $B $Y --width-192 $v --mode weight-only > $L/V_${v}_r1.log 2>&1; stamp "V $v rc=$?"
  cp $L/V_${v}_r1.log $L/V_${v}_r2.log
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -12
table R rb1 rb2 rb2c
echo "(weight-only: one round, repeated in the r2 columns)"; table W rb1 rb2 rb2c
table Y never auto
echo "(weight-only: one round)"; table V never auto
table P never auto
cat logs/summary.txt
rm -rf logs
