#!/bin/bash
# Session 39 b1 (prepared in session 39, which had no device; run it in the next one that has):
# c0 = main at 0253a17 (session 38's library), w1 = branch s39-whole-boxes at c21e558 (whole
# activation boxes for one-tile launches through the workspace; 33..63 MXFP8 rows in the 64-row
# split's clusters). Their kernels are the same SASS (cuobjdump: 145 of 145). Both GPU suites
# (c0's never ran on the device: session 38 lost it); c0 / w1 alternated, two rounds, MXFP8 at
# 33 / 48 / 63 rows on N in {1024, 2048, 4096} x K in {4096, 8192}, and the 64-row split's
# one-tile-a-CTA candidates 48 / 64 x 8192 x {8192, 28672}.
# Carry .device/s39 (run: carry [".device/s39"]).
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 w1; do
  xz -dc .device/s39/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
  xz -dc .device/s39/$v/mxgemm_gpu_tests.xz > /tmp/gpu_tests_$v && chmod +x /tmp/gpu_tests_$v
done
timeout 200 /tmp/gpu_tests_w1 > $L/gpu_suite_w1.log 2>&1; echo "gpu suite w1 rc=$?" >> $L/summary.txt
timeout 200 /tmp/gpu_tests_c0 > $L/gpu_suite_c0.log 2>&1; echo "gpu suite c0 rc=$?" >> $L/summary.txt
S="--m 33,48,63 --n 1024,2048,4096 --k 4096,8192 --iters 30"
E="--m 48,64 --n 8192 --k 8192,28672 --iters 30"
for round in 1 2; do
  for v in c0 w1; do
    timeout 70 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1
    timeout 40 /tmp/bench_$v $E > $L/E_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
for v in w1 c0; do echo "== suite $v"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite_$v.log | tail -8; done
cat logs/summary.txt
for f in M E; do
echo "== $f: M N K | c0 r1, w1 r1, c0 r2, w1 r2 us | cuBLAS bf16 (c0 r1) | fp8 | w1 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_w1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_w1_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${f}_w1_r1.log)
done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
