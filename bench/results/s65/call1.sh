#!/bin/bash
# Session 65, call 1: the README's suites on main's kernels (.device/s64/mxgemm_bench.xz, bd5e775's,
# whose SASS e9f848a keeps; bench/results/s64/retime.sh), as session 63 ran them
# (bench/results/s61/call2.sh's commands), issue #7's bar first: weight-only large and mid, MXFP8
# large and mid, then the decode suites while BUDGET lasts. Carry [".device/s64/mxgemm_bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s64/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
for mode in weight-only mxfp8; do
  limited 70 $B --suite large --iters 20 --mode $mode --csv $L/large_$mode.csv > $L/large_$mode.log 2>&1
  stamp "large $mode rc=$?"
  limited 20 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
  stamp "mid $mode rc=$?"
done
limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_weight-only.csv > $L/decode_weight-only.log 2>&1
stamp "decode weight-only rc=$?"
limited 90 $B --suite decode --iters 30 --mode mxfp8 --csv $L/decode_mxfp8.csv > $L/decode_mxfp8.log 2>&1
stamp "decode mxfp8 rc=$?"
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only mid_weight-only large_mxfp8 mid_mxfp8 decode_weight-only decode_mxfp8; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
