#!/bin/bash
# Session 37 b3: weight-only 1..8 rows: n2 (f0127f3: the skinny kernel up to 2^25 weight
# elements) against n3 (n2 with the skinny kernel only up to 2^23: the streaming kernel's K
# split in clusters above), alternated, two rounds, on N in {2048, 3072, 4096} x K in {4096,
# 8192} (2048 x 4096 is skinny in both: the control).
set -u
L=$OUT/logs; mkdir -p $L
for v in n2 n3; do xz -dc .device/s37/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
W="--mode weight-only --m 1,4,8 --n 2048,3072,4096 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in n2 n3; do timeout 80 /tmp/bench_$v $W > $L/W_${v}_r$round.log 2>&1; done
done
cd $OUT && tar czf logs.tgz logs
echo "W: M N K | n2 r1, n3 r1, n2 r2, n3 r2 us | cuBLAS bf16 (n2 r1) | fp8 | n3 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_n3_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_n2_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_n3_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/W_n3_r1.log)
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
