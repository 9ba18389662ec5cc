#!/bin/bash
# Session 54, call 3, prepared for an H200 (not run: no device time left): every suite in both
# modes with one spin for every method, for the README's H200 columns (session 49's, timed with
# per-method spins). This is the H200 part of ../s53/call1.sh, whose GPU suite and Python suite
# ran in this session's call 1 (H100). Binary: .device/s54/mxgemm_bench_7bf803e.xz (main 7bf803e's
# library; no library change since). Carry [".device/s54"]. About 7 minutes.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
cat $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200"; exit 0; }
B=/tmp/bench
xz -dc .device/s54/mxgemm_bench_7bf803e.xz > $B && chmod +x $B
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
