#!/bin/bash
# Session 72, call 1 (H200 only; stops at once elsewhere): issue #7's large weight-only suite with
# the weight as quantized (natural) against prepacked (--weight-order prepacked), two rounds in
# alternated order, then the decode and mid weight-only suites, one round each way.
# Binaries: built from commit 8f1940b (.device/next); carry [".device/next"]. BUDGET (default 520).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-520}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200: stopped"; exit 0; }
unpack bench
cd $OUT
for r in 1 2; do
  order="natural prepacked"; [ $r = 2 ] && order="prepacked natural"
  for v in $order; do
    limited 75 /tmp/bench --suite large --iters 20 --mode weight-only --weight-order $v > logs/large_${v}_r$r.log 2>&1
    stamp "large $v r$r rc=$? $(grep -A1 'geometric mean' logs/large_${v}_r$r.log | tail -1)"
  done
done
for s in decode mid; do
  for v in natural prepacked; do
    limited 75 /tmp/bench --suite $s --iters 20 --mode weight-only --weight-order $v > logs/${s}_${v}_r1.log 2>&1
    stamp "$s $v rc=$? $(grep -A1 'geometric mean' logs/${s}_${v}_r1.log | tail -1)"
  done
done
tar czf logs.tgz logs
table large natural prepacked
for s in mid decode; do
  echo "== $s: M N K | natural us | cuBLAS bf16 us | prepacked us | check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/${s}_natural_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $NF}' logs/${s}_prepacked_r1.log)
done
cat logs/summary.txt
rm -rf logs/*.log
