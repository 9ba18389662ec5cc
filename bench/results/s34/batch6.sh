#!/bin/bash
# Session 34 b6: is b1's ablation gain real? c1 = b1's c1 (scale decode replaced by one 16-byte
# load; its lanes are raw scale bytes, so the weight values become Inf/NaN); c3 = the same with
# valid values (every scale a fixed power of two, the loads masked by a zero the compiler cannot
# see). Against main (c0), plain, sustained (the bench's default) two rounds alternated, then
# burst (--warmup-ms 0), one round.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 c1 c3; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
W1="--mode weight-only --m 64,128 --n 28672,8192 --k 8192 --iters 30"
M1="--m 64,128,256 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 c1 c3; do
    for t in W1 M1; do
      timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
for v in c0 c1 c3; do
  timeout 100 /tmp/bench_$v $W1 --warmup-ms 0 > $L/B1_${v}_r1.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
echo "M N K | us c0 c1 c3 (r1) | us c0 c1 c3 (r2)"
for t in W1 M1; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r2.log) | sed "s/^/$t /"
done
echo "burst: M N K | us c0 c1 c3"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/B1_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/B1_c1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/B1_c3_r1.log) | sed "s/^/B1 /"
echo "c3 checks (valid values, scales changed: expected to differ from cuBLAS):"
grep -h "start-up check:" logs/*_c3_r1.log | sort | uniq -c
rm -rf logs
