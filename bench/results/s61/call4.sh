#!/bin/bash
# Session 61, call 4 (the last of the session's device time): main's build (.device/s61c), the mid
# suite in both modes (#3's M = 128 / 256 bars), then on an H200 the weight-only large suite
# (#7's bar) as far as BUDGET (default 150 s) allows. Carry [".device/s61c"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-150}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s61c/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
for mode in mxfp8 weight-only; do
  limited 25 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
if grep -q H200 $L/smi.log; then
  limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_weight-only.csv > $L/large_weight-only.log 2>&1
  stamp "large weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
for f in mid_mxfp8 mid_weight-only large_weight-only; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -E "^ +[0-9]+ " logs/$f.log | cut -c1-80; grep -A2 "geometric mean" logs/$f.log | head -3
  grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
