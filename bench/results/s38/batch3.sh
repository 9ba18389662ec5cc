#!/bin/bash
# Session 38 b3: n3 = n2 (timing only) with the codes form's activation block scales' tensor map
# also kMPad wide (no box past M). c0 / n3 alternated: the MXFP8 decode suite (35 shapes, M =
# 1..64), c0, n3, then n3, c0.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n3; do xz -dc .device/s38/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
timeout 110 /tmp/bench_c0 --suite decode --iters 30 > $L/D_c0_r1.log 2>&1
timeout 110 /tmp/bench_n3 --suite decode --iters 30 > $L/D_n3_r1.log 2>&1
timeout 110 /tmp/bench_n3 --suite decode --iters 30 > $L/D_n3_r2.log 2>&1
timeout 110 /tmp/bench_c0 --suite decode --iters 30 > $L/D_c0_r2.log 2>&1
cd $OUT && tar czf logs.tgz logs
echo "== D: M N K | c0 r1, n3 r1, n3 r2, c0 r2 us | cuBLAS bf16 (c0 r1) | fp8 | floor | n3 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/D_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/D_n3_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/D_n3_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/D_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/D_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/D_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $24}' logs/D_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/D_n3_r1.log)
for f in logs/D_*.log; do echo "$f"; grep -A1 "geometric mean" $f | tail -1; done
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
