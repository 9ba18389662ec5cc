#!/bin/bash
# Session 58, call 6. Carry [".device/s58"]: call 2's mxgemm_bench (main a4a1ed5's library: the
# staggered promotion). The large suite, both modes, --promote auto (main) against unstaggered
# (before a4a1ed5), same binary, alternated; then on an H200 the weight-only decode suite (the
# README's H200 column is still session 49's).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
xz -dc .device/s58/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for mode in weight-only mxfp8; do
  for v in auto unstaggered; do
    limited 90 $B --suite large --iters 20 --mode $mode --promote $v --csv $L/large_${mode}_$v.csv > $L/large_${mode}_$v.log 2>&1
    stamp "large $mode $v rc=$?"
  done
done
if grep -q H200 $L/smi.log; then
  limited 150 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1
  stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
for f in logs/large_*.csv; do
  echo "== $f"; awk -F, 'NR > 1 && $3 == 28672 {printf "%s %s %s %s %s %.3f\n", $1, $2, $3, $4, $6, $8}' $f
  grep -A2 "geometric mean" ${f%.csv}.log | head -3
done
[ -f logs/decode_wo.log ] && { grep -A3 "geometric mean" logs/decode_wo.log | head -4; grep -E "all checks passed|FAIL" logs/decode_wo.log | tail -1; }
cat logs/summary.txt
rm -rf logs
