#!/bin/bash
# Session 58, call 8. Carry [".device/s58"]: call 2's mxgemm_bench (main) and mxgemm_bench_4st.xz
# (main + wide_four_stages.patch: the 192- and 256-row tiles' ring at 4 stages instead of 6 / 5).
# Whether the 256-row ring can give up a stage (40 KB of shared memory, the room a staged
# promotion through TMA would need): both modes, 256 / 2048 / 4096 x 8192 x 8192 / 28672,
# alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_4st; do xz -dc .device/s58/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in mxgemm_bench mxgemm_bench_4st; do
      limited 40 /tmp/$v --m 256,2048,4096 --n 8192 --k 8192,28672 --iters 20 --mode $mode > $L/T${mode}_${v}_r$r.log 2>&1
      stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
for r in 1 2; do
  echo "== round $r: M N K | main, 4 stages (us) | cuBLAS bf16 (4 stages' run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/T${mode}_mxgemm_bench_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/T${mode}_mxgemm_bench_4st_r$r.log)
  done
done
cat logs/summary.txt
rm -rf logs
