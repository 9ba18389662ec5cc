#!/bin/bash
# Session 35 b2: (1) what the split reduction's second kernel costs in the bench: c2 = c0 with
# the reduction kernel not launched (ablation_skip_reduce.patch, timing only: D is left
# unwritten, so c2's checks fail), against c0 on the 8 and 16 MB weights at 16..64 rows, two
# rounds; (2) v2 = c0 + the committed routing (weight-only 9..16 rows on the skinny kernel up
# to 2^23 weight elements) against c0, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 c2 v2; do xz -dc .device/s35/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
A="--m 16,32,64 --n 1024,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 16,32,64 --n 1024,4096 --k 4096,8192 --iters 30"
C="--mode weight-only --m 9,16 --n 1024,2048 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in c0 c2; do
    timeout 100 /tmp/bench_$v $A > $L/A_${v}_r$round.log 2>&1
    timeout 100 /tmp/bench_$v $B > $L/B_${v}_r$round.log 2>&1
  done
  for v in c0 v2; do timeout 100 /tmp/bench_$v $C > $L/C_${v}_r$round.log 2>&1; done
done
cd $OUT && tar czf logs.tgz logs
for t in A B; do
  echo "$t: M N K | c0 r1, c2 r1, c0 r2, c2 r2 us | cuBLAS bf16, cuBLASLt fp8 us (c0 r1) | c2 check"
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8, $16}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_c2_r1.log)
done
echo "C: M N K | c0 r1, v2 r1, c0 r2, v2 r2 us | cuBLAS bf16 us"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/C_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/C_v2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/C_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/C_v2_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/C_c0_r1.log)
grep -c "all checks passed" logs/*_c0_*.log logs/*_v2_*.log | tr '\n' ' '; echo
tail -3 logs/A_c2_r1.log
rm -rf logs
