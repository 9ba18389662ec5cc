#!/bin/bash
# Session 56, call 2, any GPU: every suite in both modes with one spin for every method (the
# README's columns for the GPU it lands on: the H200's are session 49's, the H100's session 52's,
# both before 34bb01a's permuted copy for the H100's weight-only 33..64 rows). This is
# ../s54/call3.sh with main 8227abd's bench. Carry [".device/s56"]. About 7 minutes.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
B=/tmp/mxgemm_bench
xz -dc .device/s56/mxgemm_bench.xz > $B && chmod +x $B
limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
cd $OUT && tar czf logs.tgz logs
for f in mid_mx mid_wo large_wo large_mx decode_mx decode_wo; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
