#!/bin/bash
# Session 34 b2: the scale helpers (h1: the producer warpgroup's idle warps decode each stage's
# scale chunks into entries that the math reads with one 16-byte load) -- the GPU test suite,
# then h1 against main (c0), plain, two rounds alternated.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 h1; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s34/h1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $L/gpu.log 2>&1
timeout 240 /tmp/gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu tests rc=$?" > $L/rc.log
W1="--mode weight-only --m 64,128 --n 28672,8192 --k 8192 --iters 30"
W2="--mode weight-only --m 64 --n 8192 --k 28672 --iters 30"
W3="--mode weight-only --m 256,512 --n 8192 --k 8192 --iters 30"
M1="--m 64,128,256 --n 8192 --k 8192 --iters 30"
M2="--m 64 --n 28672 --k 8192 --iters 30"
G1="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
G2="--mode weight-only --m 2048 --n 8192 --k 28672 --iters 20"
G3="--m 4096 --n 8192 --k 8192 --iters 20"
for round in 1 2; do
  for v in c0 h1; do
    for t in W1 W2 W3 M1 M2 G1 G2 G3; do
      timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/gpu.log logs/rc.log
tail -3 logs/gpu_tests.log; grep -E "^\[  FAILED" logs/gpu_tests.log | head
echo "M N K | us c0 h1 (r1) | us c0 h1 (r2) | c0 r1: x floor, ratio vs cuBLAS bf16 | h1 r1: x floor, ratio"
for t in W1 W2 W3 M1 M2 G1 G2 G3; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_h1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $10}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $10}' logs/${t}_h1_r1.log) | sed "s/^/$t /"
done
grep -h "check: \|!!!" logs/*_h1_*.log | sort | uniq -c
grep -h " bad\| FAIL" logs/*_h1_*.log | head -5
rm -rf logs
