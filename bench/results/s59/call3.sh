#!/bin/bash
# Session 59, call 3: an L2 set-aside for persisting lines (cudaLimitPersistingL2CacheSize, which
# is 0 by default), to see whether the 256-row tiles' evict_last promotion slots then stay in
# L2. Carry [".device/s59b"]: main's bench with l2_persist_bench.patch (the limit from the
# environment, MXGEMM_BENCH_L2_PERSIST_MB). Variants: none, 20 MB, 30 MB, alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-420}
: > $L/summary.txt
xz -dc .device/s59b/mxgemm_bench_l2.xz > /tmp/b && chmod +x /tmp/b
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in 0 20 30; do
      if [ $v = 0 ]; then unset MXGEMM_BENCH_L2_PERSIST_MB; else export MXGEMM_BENCH_L2_PERSIST_MB=$v; fi
      limited 30 /tmp/b --m 2048,4096 --n 8192 --k 28672,8192 --iters 20 --mode $mode > $L/P${mode}_${v}_r$r.log 2>&1
      stamp "$mode persist=$v r$r rc=$?"
    done
  done
done
unset MXGEMM_BENCH_L2_PERSIST_MB
limited 30 /tmp/b --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode weight-only --promote never > $L/never_wo.log 2>&1; stamp "never rc=$?"
cd $OUT && tar czf logs.tgz logs
grep "L2 persisting" logs/*.log | head -2
for r in 1 2; do
  echo "== round $r: M N K | persist 0, 20, 30 MB (us) | cuBLAS bf16 (30's run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/P${mode}_0_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/P${mode}_20_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/P${mode}_30_r$r.log)
  done
done
echo "== never, weight-only"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/never_wo.log
cat logs/summary.txt
rm -rf logs
