#!/bin/bash
# Session 58, call 7. Carry [".device/s58"]: call 2's mxgemm_bench (main a4a1ed5's library).
# --promote auto (staggered) against unstaggered, alternated, two rounds, both modes,
# 2048 / 4096 x 8192 x 28672; then on an H200 the weight-only decode suite (the README's H200
# column is still session 49's).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-400}
: > $L/summary.txt
xz -dc .device/s58/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
B=/tmp/mxgemm_bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in auto unstaggered; do
      limited 30 $B --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode --promote $v > $L/T${mode}_${v}_r$r.log 2>&1
      stamp "$mode $v r$r rc=$?"
    done
  done
done
if grep -q H200 $L/smi.log; then
  limited 150 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1
  stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
for r in 1 2; do
  echo "== round $r: M N K | auto unstaggered (us) | cuBLAS bf16 (unstaggered's run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/T${mode}_auto_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/T${mode}_unstaggered_r$r.log)
  done
done
[ -f logs/decode_wo.log ] && { grep -A3 "geometric mean" logs/decode_wo.log | head -4; grep -E "all checks passed|FAIL" logs/decode_wo.log | tail -1; }
cat logs/summary.txt
rm -rf logs
