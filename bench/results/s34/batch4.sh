#!/bin/bash
# Session 34 b4: h4 = the scale helpers (h1) whose waits on the ring suspend the helper threads
# (mbarrier try_wait with a suspend-time hint) instead of spinning: the GPU test suite, then h4
# against main (c0), plain, two rounds alternated.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 h4; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s34/h4/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 240 /tmp/gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu tests rc=$?" > $L/rc.log
W1="--mode weight-only --m 64,128 --n 28672,8192 --k 8192 --iters 30"
W2="--mode weight-only --m 64,256 --n 8192 --k 28672 --iters 30"
M1="--m 64,128,256 --n 8192 --k 8192 --iters 30"
G1="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
for round in 1 2; do
  for v in c0 h4; do
    for t in W1 W2 M1 G1; do
      timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/rc.log; tail -1 logs/gpu_tests.log; grep -E "^\[  FAILED" logs/gpu_tests.log | head
echo "M N K | us c0 h4 (r1) | us c0 h4 (r2) | c0 r1: x floor, ratio vs cuBLAS bf16 | h4 r1: x floor, ratio"
for t in W1 W2 M1 G1; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h4_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h4_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $10}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $10}' logs/${t}_h4_r1.log) | sed "s/^/$t /"
done
grep -h " bad\| FAIL" logs/*_h4_*.log | head -5
rm -rf logs
