#!/bin/bash
# Session 34 b1: timing-only ablations of the values forms' per-sub-stage work, against main (c0),
# plain, two rounds alternated: c1 = the weight's scale decode and window watch replaced by one
# 16-byte shared load and one OR (what pre-decoded lanes from the producer warpgroup's idle warps
# would leave the math); c2 = c1 and no per-element conversion at all (the loaded words fed as
# they are). Values of c1/c2 are wrong (their check column fails); only their times count.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 c1 c2; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $L/gpu.log 2>&1
W1="--mode weight-only --m 64,128 --n 28672,8192 --k 8192 --iters 30"
W2="--mode weight-only --m 64 --n 8192 --k 28672 --iters 30"
M1="--m 64,128,256 --n 8192 --k 8192 --iters 30"
M2="--m 64 --n 28672 --k 8192 --iters 30"
G1="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
G2="--mode weight-only --m 2048 --n 8192 --k 28672 --iters 20"
for round in 1 2; do
  for v in c0 c1 c2; do
    for t in W1 W2 M1 M2 G1 G2; do
      timeout 120 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/gpu.log
echo "M N K | us c0 c1 c2 (r1) | us c0 c1 c2 (r2) | c0 r1: x floor, ratio vs cuBLAS bf16"
for t in W1 W2 M1 M2 G1 G2; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $10}' logs/${t}_c0_r1.log) | sed "s/^/$t /"
done
grep -h "check: PASS\|check: FAIL" logs/*_c0_r1.log | sort | uniq -c
rm -rf logs
