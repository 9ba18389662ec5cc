#!/bin/bash
# Session 37 b4: nF = the session's last library commit (n2 + weight-only 1..8 rows on the
# skinny kernel only up to 2^24 weight elements where the streaming kernel clusters). nF's GPU
# suite; n2 / nF alternated, two rounds, weight-only 1 / 8 rows at 3072 / 4096 x 8192 and
# 4096^2; nF's weight-only decode suite.
set -u
L=$OUT/logs; mkdir -p $L
for v in n2 nF; do xz -dc .device/s37/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
xz -dc .device/s37/nF/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 220 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
W="--mode weight-only --m 1,8 --n 3072,4096 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in n2 nF; do timeout 60 /tmp/bench_$v $W > $L/W_${v}_r$round.log 2>&1; done
done
timeout 110 /tmp/bench_nF --suite decode --iters 30 --mode weight-only > $L/decode_wo.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -8
cat logs/summary.txt
echo "W: M N K | n2 r1, nF r1, n2 r2, nF r2 us | cuBLAS bf16 (n2 r1) | fp8 | nF check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_nF_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_n2_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_nF_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/W_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/W_nF_r1.log)
echo "== decode_wo (M N K us bf16us ratio fp8us ratio xfloor)"
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $10, $16, $18, $25}' logs/decode_wo.log | grep -E " (1024|4096) "
grep -A4 "geometric mean" logs/decode_wo.log
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
