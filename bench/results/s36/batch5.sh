#!/bin/bash
# Session 36 b5: nF = n3 + weight-only 9..16 rows on the skinny kernel only up to 2^22 weight
# elements (was 2^23). GPU suite of nF; c0 (main, 165fc41) and nF alternated, two rounds, on
# weight-only 9 / 12 / 16 rows at 1024 x 8192, 2048 x 4096 (now streaming, K split in
# clusters) and 1024 x 4096 (skinny either way); nF's weight-only decode suite.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s36/c0/mxgemm_bench.xz > /tmp/bench_c0 && xz -dc .device/s36/nF/mxgemm_bench.xz > /tmp/bench_nF
chmod +x /tmp/bench_c0 /tmp/bench_nF
xz -dc .device/s36/nF/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 240 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
W="--mode weight-only --m 9,12,16 --n 1024,2048 --k 4096,8192 --iters 30"
for round in 1 2; do
  for v in c0 nF; do timeout 80 /tmp/bench_$v $W > $L/W_${v}_r$round.log 2>&1; done
done
timeout 150 /tmp/bench_nF --suite decode --iters 30 --mode weight-only > $L/decode_wo.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -8
cat logs/summary.txt
echo "W: M N K | c0 r1, nF r1, c0 r2, nF r2 us | cuBLAS bf16 us (c0 r1) | nF check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/W_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_nF_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/W_nF_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/W_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/W_nF_r1.log)
echo "== decode_wo (M N K us bf16us ratio fp8us ratio xfloor)"
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $10, $16, $18, $25}' logs/decode_wo.log
grep -A4 "geometric mean" logs/decode_wo.log
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
