#!/bin/bash
# Session 55, call 1: ../s54/call2.sh's (H) part again, with --iters 20 (the bench's least; s54's
# --iters 10 was refused, rc 2). Host side a call, old (447f9d0) against new (7bf803e) library on
# one machine, 48 x 8192 x 8192, both modes, two rounds alternated; the CSV's mxgemm_host_us.
# Carry [".device/s54"].
set -u
L=$OUT/host; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-150}
: > $L/summary.txt
nvidia-smi --query-gpu=name --format=csv,noheader
for v in 447f9d0 7bf803e; do xz -dc .device/s54/mxgemm_bench_$v.xz > /tmp/b_$v && chmod +x /tmp/b_$v; done
for r in 1 2; do
  for v in 447f9d0 7bf803e; do
    for mode in mxfp8 weight-only; do
      limited 25 /tmp/b_$v --m 48 --n 8192 --k 8192 --iters 20 --mode $mode --csv $L/H_${v}_${mode}_r$r.csv \
        > $L/H_${v}_${mode}_r$r.log 2>&1
      stamp "H $v $mode r$r rc=$?"
    done
  done
done
echo "== host us a call (mxgemm column), 48 x 8192 x 8192"
for f in $L/H_*.csv; do
  awk -F, -v n=$(basename $f .csv) 'NR==1{for(i=1;i<=NF;i++) if($i=="mxgemm_host_us") c=i} NR==2{print n, $c}' $f
done
cat $L/summary.txt
(cd $OUT && tar czf host.tgz host && rm -rf host)
