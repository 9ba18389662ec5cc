#!/bin/bash
# Session 34 b3: why the scale helpers (h1) lost: h3 = h1 without the math's wait on the
# helpers' entries (timing only: the entries may be read before they are written), against
# main (c0) and h1, plain, two rounds alternated.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 h1 h3; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
W1="--mode weight-only --m 64,128 --n 28672,8192 --k 8192 --iters 30"
M1="--m 64,128,256 --n 8192 --k 8192 --iters 30"
G1="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
for round in 1 2; do
  for v in c0 h1 h3; do
    for t in W1 M1 G1; do
      timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "M N K | us c0 h1 h3 (r1) | us c0 h1 h3 (r2)"
for t in W1 M1 G1; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h3_r2.log) | sed "s/^/$t /"
done
rm -rf logs
