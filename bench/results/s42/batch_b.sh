#!/bin/bash
# Session 42 call B: m41 (main at 492e1d3) against m41w (s42-wide-boxes: boxes of M rows for
# every one-tile launch), alternated, two rounds, on the one-tile launches call A did not cover:
#   C: MXFP8 17 / 24 rows in the 32-row split's clusters, N in {1024, 4096} x K in {4096, 8192};
#   O: weight-only 13 / 17 / 24 / 27 / 45 rows on N in {1024, 4096, 8192} x 8192 (read in place);
#   T: MXFP8 part tiles of 128 and 256 rows, 65 / 100 / 129 / 200 x 8192^2;
# then, with what time is left, next0's K sweep of the forced 64-row split at N = 8192 (m41).
# Carry [".device/s41/m41", ".device/s42/m41w"]. BUDGET (s, default 480) bounds it.
set -u
L=$OUT/logs; mkdir -p $L
BUDGET=${BUDGET:-480}
source "$(dirname "$0")/../s39/common.sh"  # limited (under BUDGET), stamp, table
for v in m41 m41w; do
  d=.device/s41/$v; [ $v = m41w ] && d=.device/s42/m41w
  xz -dc $d/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
done
declare -A SET=(
  [C]="--m 17,24 --n 1024,4096 --k 4096,8192 --iters 30 --mode mxfp8"
  [O]="--m 13,17,24,27,45 --n 1024,4096,8192 --k 8192 --iters 30 --mode weight-only"
  [T]="--m 65,100,129,200 --n 8192 --k 8192 --iters 20 --mode mxfp8")
for r in 1 2; do for v in m41 m41w; do for f in C O T; do
  limited 45 /tmp/bench_$v ${SET[$f]} > $L/${f}_${v}_r$r.log 2>&1; stamp "$f $v r$r rc=$?"
done; done; done
E="--m 48,64 --n 8192 --k 4096,8192,12288,16384 --iters 30"
for r in 1 2; do
  limited 30 /tmp/bench_m41 $E > $L/E_auto_r$r.log 2>&1; stamp "E auto r$r rc=$?"
  limited 30 /tmp/bench_m41 $E --split-k always > $L/E_always_r$r.log 2>&1; stamp "E always r$r rc=$?"
done
cd $OUT && tar czf logs_b.tgz logs
for f in C O T; do table $f m41 m41w; done
table E auto always
cat logs/summary.txt
rm -rf logs
