#!/bin/bash
# Session 35 b4: is it the cooperative launch? n2 = n1 launched without the cooperative
# attribute (timing experiment: the in-kernel sum's waits then rely on all CTAs being resident,
# as they are on an idle H200), against c0 and n1 on the split-reduction shapes, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1 n2; do xz -dc .device/s35/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
A="--m 32,64 --n 1024,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 32,64 --n 1024,4096 --k 4096,8192 --iters 30"
for round in 1 2; do for v in c0 n1 n2; do for t in A B; do
  timeout 60 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
done; done; done
cd $OUT && tar czf logs.tgz logs
echo "M N K | c0 r1, n1 r1, n2 r1, c0 r2, n1 r2, n2 r2 us | cuBLAS bf16 (c0 r1) | n2 check"
for t in A B; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_n2_r1.log) | sed "s/^/$t /"
done
rm -rf logs
