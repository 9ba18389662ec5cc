#!/bin/bash
# Session 49, call 3, on main + the L2-ahead experiment (default off). (1) The GPU suite (two new
# tests run the prefetch). (2) The L2 prefetch ahead of the ring against none, same binary,
# alternated, two rounds: --l2-ahead 0 / 4 / 8 / -8 (activation only), 2048..8192 x 8192^2, both
# modes. (3) SM clock and power of each method under its sustained load: nvidia-smi every 50 ms
# while mxgemm_bench holds each method 4 s (--warmup-ms 4000), 4096 x 8192^2, both modes. (4) The
# mid and large suites, both modes. (5) --width-192 always against auto at 2048 / 4096 rows.
# Carry [".device/next"] (mxgemm_bench.xz, mxgemm_gpu_tests.xz of build-dev).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-565}
: > $L/summary.txt
B=/tmp/bench T=/tmp/gpu_tests
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/next/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 170 $T > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
S="--m 2048,4096,8192 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in 0 4 8 -8; do
      limited 25 $B $S --mode $mode --l2-ahead $v > $L/P${mode}_${v}_r$r.log 2>&1; stamp "$mode ahead $v r$r rc=$?"
    done
  done
done
for mode in weight-only mxfp8; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 50 > $L/power_$mode.csv 2>&1 &
  SMI=$!
  sleep 1
  limited 45 $B --m 4096 --n 8192 --k 8192 --iters 20 --warmup-ms 4000 --mode $mode > $L/power_$mode.log 2>&1; stamp "power $mode rc=$?"
  sleep 1; kill $SMI
done
for s in mid large; do
  for mode in weight-only mxfp8; do
    limited 60 $B --suite $s --iters 20 --mode $mode > $L/${s}_$mode.log 2>&1; stamp "$s $mode rc=$?"
  done
done
for v in auto always; do
  limited 20 $B --m 2048,4096 --n 8192 --k 8192 --iters 20 --mode weight-only --width-192 $v > $L/W_$v.log 2>&1; stamp "width-192 $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
for mode in weight-only mxfp8; do
  echo "== $mode: M | ahead 0 4 8 -8, round 1 | round 2 (us) | cuBLAS bf16 (r1)"
  for M in 2048 4096 8192; do
    line="$M"
    for r in 1 2; do for v in 0 4 8 -8; do line="$line $(awk -v m=$M '$1==m && NF>20 {print $5}' logs/P${mode}_${v}_r$r.log)"; done; line="$line |"; done
    echo "$line $(awk -v m=$M '$1==m && NF>20 {print $8}' logs/P${mode}_0_r1.log)"
  done
done
for s in mid large; do for mode in weight-only mxfp8; do echo "== $s $mode"; grep -A3 "geometric mean" logs/${s}_$mode.log | sed -n 2,4p; done; done
for v in auto always; do echo "== width-192 $v"; grep -E "^ +(2048|4096) " logs/W_$v.log | cut -c1-90; done
cat logs/summary.txt
rm -rf logs
