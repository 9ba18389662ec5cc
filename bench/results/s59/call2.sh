#!/bin/bash
# Session 59, call 2: main 14dcc08's bench (.device/s58/mxgemm_bench.xz, built this session from
# main) re-times the suites of the README's table: large and mid in both modes, then the decode
# suites (weight-only first: the H200's weight-only decode column is session 49's).
# Carry [".device/s58"]. Asked for an H200; smi.log says which GPU came.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-570}
: > $L/summary.txt
xz -dc .device/s58/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for mode in weight-only mxfp8; do
  limited 90 $B --suite large --iters 20 --mode $mode --csv $L/large_$mode.csv > $L/large_$mode.log 2>&1
  stamp "large $mode rc=$?"
  limited 30 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
for mode in weight-only mxfp8; do
  limited 170 $B --suite decode --iters 30 --mode $mode --csv $L/decode_$mode.csv > $L/decode_$mode.log 2>&1
  stamp "decode $mode rc=$?"
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for f in large_weight-only large_mxfp8 mid_weight-only mid_mxfp8 decode_weight-only decode_mxfp8; do
  echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
