#!/bin/bash
# Session 34 b8: what the per-element conversion is worth with data-like values under the power
# cap: c4 = c3 (no scale decode, valid scales) and each fragment pair its loaded word masked to
# finite 16-bit values (one LOP a pair instead of F2FP + the scale multiply), against main (c0)
# and c3, plain, sustained, two rounds alternated; then burst, one round.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 c3 c4; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
W1="--mode weight-only --m 64,128 --n 28672 --k 8192 --iters 30"
M1="--m 128,256 --n 8192 --k 8192 --iters 30"
G1="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
G2="--mode weight-only --m 2048 --n 28672 --k 8192 --iters 20"
for round in 1 2; do
  for v in c0 c3 c4; do
    for t in W1 M1 G1 G2; do
      timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
for v in c0 c3 c4; do
  timeout 100 /tmp/bench_$v $W1 --warmup-ms 0 > $L/B1_${v}_r1.log 2>&1
  timeout 100 /tmp/bench_$v $G1 --warmup-ms 0 > $L/B2_${v}_r1.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
echo "M N K | us c0 c3 c4 (r1) | us c0 c3 c4 (r2) | c0 r1 ratio vs cuBLAS bf16"
for t in W1 M1 G1 G2; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c4_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c4_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $10}' logs/${t}_c0_r1.log) | sed "s/^/$t /"
done
echo "burst: M N K | us c0 c3 c4"
for t in B1 B2; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c4_r1.log) | sed "s/^/$t /"
done
grep -h "rel. err" logs/W1_c4_r1.log | head -0
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print "c4 check:", $1, $2, $3, $(NF-3), $(NF-2), $(NF-1), $NF}' logs/W1_c4_r1.log logs/G1_c4_r1.log
rm -rf logs
