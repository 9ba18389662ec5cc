#!/bin/bash
# Session 38 b1: n1 = 33..64 rows with K split between the two warpgroups (64-row weight tiles,
# StreamGemmConfig::kSplitK with two parts), one tile a CTA where the tiles fill the SMs, else in
# clusters (split_k_cluster_ctas, two parts), MXFP8 and weight-only. The split and cluster GPU
# tests; c0 (main, session 37's nG) and n1 alternated, two rounds, MXFP8 and weight-only at
# 33 / 48 / 64 rows on N in {1024, 2048, 3072, 4096} x K in {4096, 8192}, and 48 / 64 x 8192^2;
# t0 (main with -DMXGEMM_STREAM_TRACE): timelines of 64 x {1024 x 8192, 4096^2}.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1 t0; do xz -dc .device/s38/$v/mxgemm_bench.xz > /tmp/bench_$v; chmod +x /tmp/bench_$v; done
xz -dc .device/s38/n1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 150 /tmp/gpu_tests --gtest_filter='*SplitK*:*Cluster*:*WideTiles*' > $L/gpu_split.log 2>&1; echo "gpu split tests rc=$?" >> $L/summary.txt
S="--m 33,48,64 --n 1024,2048,3072,4096 --k 4096,8192 --iters 30"
E="--m 48,64 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 n1; do
    timeout 70 /tmp/bench_$v $S > $L/M_${v}_r$round.log 2>&1
    timeout 70 /tmp/bench_$v $S --mode weight-only > $L/W_${v}_r$round.log 2>&1
    timeout 30 /tmp/bench_$v $E > $L/E_${v}_r$round.log 2>&1
    timeout 30 /tmp/bench_$v $E --mode weight-only > $L/EW_${v}_r$round.log 2>&1
  done
done
MXGEMM_TRACE=1 timeout 30 /tmp/bench_t0 --m 64 --n 1024,4096 --k 8192,4096 --iters 5 > $L/trace_t0.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_split.log | tail -12
cat logs/summary.txt
for f in M W E EW; do
echo "== $f: M N K | c0 r1, n1 r1, c0 r2, n1 r2 us | cuBLAS bf16 (c0 r1) | fp8 | n1 check"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${f}_n1_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${f}_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${f}_n1_r1.log)
done
echo "== trace (last line per shape)"
grep TRACE logs/trace_t0.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | cut -c1-1500
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
