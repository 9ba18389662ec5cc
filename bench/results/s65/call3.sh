#!/bin/bash
# Session 65, call 3, for an H200 (issue #7's and #3's GPU) on the little device time left:
# main's kernels (.device/s64/mxgemm_bench.xz), the suites in the order of what they settle
# (weight-only large, the two mid suites, weight-only large again, MXFP8 large, the decode
# suites), each cut by BUDGET. Carry [".device/s64/mxgemm_bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-240}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s64/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
run() { local name=$1 t=$2; shift 2; limited $t $B "$@" --csv $L/$name.csv > $L/$name.log 2>&1; stamp "$name rc=$?"; }
run large_weight-only 60 --suite large --iters 20 --mode weight-only
run mid_weight-only 20 --suite mid --iters 20 --mode weight-only
run mid_mxfp8 20 --suite mid --iters 20 --mode mxfp8
run large_weight-only_r2 60 --suite large --iters 20 --mode weight-only
run large_mxfp8 60 --suite large --iters 20 --mode mxfp8
run decode_weight-only 60 --suite decode --iters 30 --mode weight-only
run decode_mxfp8 70 --suite decode --iters 30 --mode mxfp8
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only large_weight-only_r2 mid_weight-only mid_mxfp8 large_mxfp8 decode_weight-only decode_mxfp8; do
  grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
  echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
