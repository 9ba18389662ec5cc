#!/bin/bash
# Session 61, call 2: the suites that make the README's columns (decode weight-only first, then
# large and mid in both modes, decode MXFP8), on the build named by BIN (default main's, 6331120:
# .device/s61b/mxgemm_bench.xz, or the copy in .device/s61c; BIN=mxgemm_bench_ring5 for ring5.patch's). Carry [".device/s61c"] or [".device/s61b"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
BIN=${BIN:-mxgemm_bench}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
echo "binary: $BIN" | tee -a $L/summary.txt
D=${D:-.device/s61c}; [ -f $D/$BIN.xz ] || D=.device/s61b
xz -dc $D/$BIN.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_weight-only.csv > $L/decode_weight-only.log 2>&1
stamp "decode weight-only rc=$?"
for mode in weight-only mxfp8; do
  limited 70 $B --suite large --iters 20 --mode $mode --csv $L/large_$mode.csv > $L/large_$mode.log 2>&1
  stamp "large $mode rc=$?"
  limited 20 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
limited 90 $B --suite decode --iters 30 --mode mxfp8 --csv $L/decode_mxfp8.csv > $L/decode_mxfp8.log 2>&1
stamp "decode mxfp8 rc=$?"
cd $OUT && tar czf logs.tgz logs
for f in decode_weight-only large_weight-only large_mxfp8 mid_weight-only mid_mxfp8 decode_mxfp8; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
