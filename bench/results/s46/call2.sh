#!/bin/bash
# Session 46, device call 2: the candidates build (branch s46-candidates: main + session 42's
# 192-row width and padded workspace, re-applied from bench/results/s42/*-patches with run-time
# switches), each timed against main's choice in the same binary, two rounds around the build's
# whole GPU suite; the row-blocks spike at K = 8192 first.
#   Y  --width-192 auto|never: 129..192 rows in 192-row tiles | main's 256-row tiles
#   P  --padded-ws auto|never: the pre-pass's activation padded to whole tiles | M rows
#   M3 issue #3's shapes (128 / 256 x 8192^2, not touched by either feature), W7 issue #7's.
# Carry [".device/s46/cand", ".device/s46/spike"]. Summary last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-570}
: > $L/summary.txt
B=/tmp/bench_cand T=/tmp/gpu_tests_cand
xz -dc .device/s46/cand/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s46/cand/mxgemm_gpu_tests.xz > $T && chmod +x $T
xz -dc .device/s46/spike/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 50 /tmp/row_blocks 8192 > $L/row_blocks_8192.log 2>&1; stamp "row_blocks 8192 rc=$?"
Y="--m 129,160,192 --n 8192 --k 8192 --iters 20"
P="--m 300,512,600,1000,2048,2100 --n 8192 --k 8192 --iters 20"
bench_round() {
  local round=$1 v
  for v in auto never; do limited 25 $B $Y --width-192 $v > $L/Y_${v}_r$round.log 2>&1; stamp "Y $v r$round rc=$?"; done
  for v in auto never; do limited 40 $B $P --padded-ws $v > $L/P_${v}_r$round.log 2>&1; stamp "P $v r$round rc=$?"; done
  limited 25 $B --m 128,256 --n 8192 --k 8192 --iters 30 > $L/M3_auto_r$round.log 2>&1; stamp "M3 r$round rc=$?"
}
bench_round 1
limited 230 $T > $L/tests_full.log 2>&1; stamp "GPU suite rc=$?"
bench_round 2
limited 40 $B --m 4096,8192 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/W7_auto_r1.log 2>&1; stamp "W7 rc=$?"
cp $L/W7_auto_r1.log $L/W7_auto_r2.log
limited 25 $B $Y --width-192 auto --mode weight-only > $L/V_auto_r1.log 2>&1; stamp "V auto rc=$?"
limited 25 $B $Y --width-192 never --mode weight-only > $L/V_never_r1.log 2>&1; stamp "V never rc=$?"
cp $L/V_auto_r1.log $L/V_auto_r2.log; cp $L/V_never_r1.log $L/V_never_r2.log
cd $OUT && tar czf logs.tgz logs
echo "== row_blocks spike (K = 8192)"; grep "^|" logs/row_blocks_8192.log
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests_full.log | tail -12
table Y never auto
echo "(weight-only: one round, repeated in the r2 columns)"; table V never auto
table P never auto
table M3 auto
echo "(one round, repeated)"; table W7 auto
cat logs/summary.txt
rm -rf logs
