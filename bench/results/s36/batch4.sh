#!/bin/bash
# Session 36 b4: n3 (b3's build). 8192^2 at 16 / 32 rows, c0 (main, 165fc41) and n3 alternated,
# two rounds (the one-tile-a-CTA split's instances are SASS-identical; b2 / b3 read 16 rows
# MXFP8 0.5 us apart); weight-only 9 / 12 / 16 rows at 2^22..2^23-element weights with the
# streaming kernel (clusters) in the comparison column, where the skinny kernel runs; the
# decode suite of n3 in both modes.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s36/c0/mxgemm_bench.xz > /tmp/bench_c0 && xz -dc .device/s36/n3/mxgemm_bench.xz > /tmp/bench_n3
chmod +x /tmp/bench_c0 /tmp/bench_n3
R="--m 16,32 --n 8192 --k 8192 --iters 30"
S="--mode weight-only --m 16,32 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 n3; do
    for t in R S; do timeout 60 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1; done
  done
done
timeout 100 /tmp/bench_n3 --mode weight-only --m 9,12,16 --n 1024,2048 --k 4096,8192 --iters 30 --compare-kernel streaming > $L/W_n3.log 2>&1
timeout 200 /tmp/bench_n3 --suite decode --iters 30 > $L/decode_mxfp8.log 2>&1
timeout 200 /tmp/bench_n3 --suite decode --iters 30 --mode weight-only > $L/decode_wo.log 2>&1
cd $OUT && tar czf logs.tgz logs
for t in R S; do
  echo "$t: M N K | c0 r1, n3 r1, c0 r2, n3 r2 us | cuBLAS bf16 us c0 r1, n3 r1, c0 r2, n3 r2"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n3_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_n3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_n3_r2.log)
done
echo "W: M N K | mxgemm (skinny) us | streaming (compare column) us | cuBLAS bf16 us"
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $8}' logs/W_n3.log
for t in decode_mxfp8 decode_wo; do echo "== $t"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $10, $16, $18, $25}' logs/$t.log; grep -iE "geomean|geometric" logs/$t.log | head -5; done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
