#!/bin/bash
# Session 58, call 5. Carry [".device/s58"]: mxgemm_bench_dbg.xz, main a4a1ed5 (the staggered
# promotion) plus promote_debug.patch (timing only, wrong sums): MXGEMM_PROMOTE_DEBUG bits
#   1: the promotions drain and restart the chain but write nothing (and nothing is read back)
#   2: every promotion a plain store (no red.add's read-modify-write)
#   4: no read-back at the item's end
# What of the 256-row tiles' promotion cost at K = 28672 (4-5%, calls 2-4) is the drain, the
# reductions, the read-back. Alternated, two rounds, both modes, 2048 / 4096 x 8192 x 28672:
# debug 0 (auto), 1, 2, 4, 6 and --promote never.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
xz -dc .device/s58/mxgemm_bench_dbg.xz > /tmp/mxgemm_bench_dbg && chmod +x /tmp/mxgemm_bench_dbg
B=/tmp/mxgemm_bench_dbg
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $L/smi.log 2>&1
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in 0 1 2 4 6 never; do
      if [ $v = never ]; then limited 30 $B --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode --promote never > $L/T${mode}_${v}_r$r.log 2>&1
      else MXGEMM_PROMOTE_DEBUG=$v limited 30 $B --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode > $L/T${mode}_${v}_r$r.log 2>&1; fi
      stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for r in 1 2; do
  echo "== round $r: M N K | debug 0 1 2 4 6, never (us) | cuBLAS bf16 (never's run)"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/T${mode}_0_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_1_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_2_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_4_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_6_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8}' logs/T${mode}_never_r$r.log)
  done
done
cat logs/summary.txt
rm -rf logs
