#!/bin/bash
# Session 37 b5: the wide clusters' rule on shapes b1/b2 did not cover: MXFP8 33 / 64 rows at
# N = 4608 (36 tiles: clusters of 3, 108 CTAs) and 5120 (40 tiles: clusters of 2, 80 CTAs) x K
# in {4096, 6144} (below 2^25 elements); c0 (main, 2921a89) / nF alternated, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 nF; do xz -dc .device/s37/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
S="--m 33,64 --n 4608,5120 --k 4096,6144 --iters 30"
for round in 1 2; do
  for v in c0 nF; do timeout 50 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1; done
done
cd $OUT && tar czf logs.tgz logs
echo "M: M N K | c0 r1, nF r1, c0 r2, nF r2 us | cuBLAS bf16 (c0 r1) | fp8 | nF check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_nF_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/M_nF_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/M_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/M_nF_r1.log)
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
