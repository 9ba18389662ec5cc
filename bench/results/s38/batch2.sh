#!/bin/bash
# Session 38 b2: is the 64-row split slow at 33 / 48 rows because of the activation's TMA boxes
# that reach past M (out-of-bounds rows, zero-filled)? n2 = n1 (timing only) with the MXFP8
# pre-pass's workspace covering whole 64-row boxes (its tensor map kMPad rows, the rows past M
# unwritten: only D's columns past M see them). c0 / n1 / n2 alternated, two rounds, MXFP8 at
# 33 / 48 / 64 x {3072, 4096} x {4096, 8192} and 48 x 8192^2.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1 n2; do xz -dc .device/s38/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
S="--m 33,48,64 --n 3072,4096 --k 4096,8192 --iters 30"
E="--m 48 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 n1 n2; do
    timeout 70 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1
    timeout 30 /tmp/bench_$v $E > $L/E_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
for f in M E; do
echo "== $f: M N K | c0 r1, n1 r1, n2 r1, c0 r2, n1 r2, n2 r2 us | cuBLAS bf16 (c0 r1) | n2 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n2_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n1_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n2_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${f}_n2_r1.log)
done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
