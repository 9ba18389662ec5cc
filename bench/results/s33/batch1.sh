#!/bin/bash
# Session 33 b1: the weight TMAs of each CTA's first item issued before the CTA barrier (c1)
# against main (c0): the timelines (tr0 = main with the finer producer stamps, tr1 = c1), the
# TMA ring's own timeline (RING_TRACE), and the bench, plain, two rounds alternated.
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 c1 tr0 tr1; do xz -dc .device/s33/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
R=.device/s33/spike/ring_stream
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $L/gpu.log 2>&1
# Timelines
for v in tr0 tr1; do
  tr() { MXGEMM_TRACE=1 timeout 100 /tmp/bench_$v "$@" --iters 20 --warmup 1 --warmup-ms 0 2>&1; }
  tr --mode weight-only --m 1 --n 8192 --k 8192 > $L/${v}_wo_1x8192x8192.log
  tr --mode weight-only --m 1 --n 28672 --k 8192 > $L/${v}_wo_1x28672x8192.log
  tr --mode weight-only --m 16 --n 8192 --k 8192 > $L/${v}_wo_16x8192x8192.log
  tr --m 16 --n 28672 --k 8192 > $L/${v}_mx_16x28672x8192.log
done
{ RING_TRACE=1 timeout 60 $R tma:256:128:4:1:112 tma:128:128:4:1
  RING_TRACE=1 RING_N=8192 timeout 60 $R tma:64:128:8:1:128; } > $L/ring_trace.log 2>&1
# Plain, two rounds alternated
S1="--m 1,8,16,32,64 --n 28672,8192 --k 8192 --iters 30"
S2="--m 1,16 --n 8192 --k 28672 --iters 30"
S3="--m 1,16,32,64 --n 28672,8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c0 c1; do
    timeout 150 /tmp/bench_$v --mode weight-only $S1 > $L/wo1_${v}_r$round.log 2>&1
    timeout 100 /tmp/bench_$v --mode weight-only $S2 > $L/wo2_${v}_r$round.log 2>&1
    timeout 150 /tmp/bench_$v $S3 > $L/mx_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/gpu.log
python3 $OLDPWD/bench/results/s33/trace_summary.py logs/tr*.log logs/ring_trace.log
grep -h "cluster" logs/ring_trace.log
echo "plain: M N K us(c0 r1) us(c1 r1) us(c0 r2) us(c1 r2) | xfloor c0 r1"
for t in wo1 wo2 mx; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $25, $16}' logs/${t}_c0_r1.log) | sed "s/^/$t /"
done
grep -h "FAIL\|mismatch" logs/*_c1_*.log | head -5
rm -rf logs
