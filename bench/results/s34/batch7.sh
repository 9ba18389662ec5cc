#!/bin/bash
# Session 34 b7: which decode shapes the power cap holds. main (c0), weight-only and MXFP8 at
# 1..64 rows on the 224 MB weights, sustained (the bench's default: 300 ms of back-to-back runs
# per method first) against burst (--warmup-ms 0), two rounds alternated; nvidia-smi samples the
# SM clock and power during one sustained run of each M.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s34/c0/mxgemm_bench.xz > /tmp/bench_c0 && chmod +x /tmp/bench_c0
S="--m 1,16,32,64 --n 28672 --k 8192 --iters 30"
T="--m 1,16,64 --n 8192 --k 28672 --iters 30"
for round in 1 2; do
  for w in 300 0; do
    timeout 100 /tmp/bench_c0 --mode weight-only $S --warmup-ms $w > $L/wo_w${w}_r$round.log 2>&1
    timeout 100 /tmp/bench_c0 $S --warmup-ms $w > $L/mx_w${w}_r$round.log 2>&1
    timeout 100 /tmp/bench_c0 --mode weight-only $T --warmup-ms $w > $L/wt_w${w}_r$round.log 2>&1
  done
done
for m in 1 64; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv -lms 20 > $L/smi_m$m.log 2>&1 &
  SMI=$!
  timeout 100 /tmp/bench_c0 --mode weight-only --m $m --n 28672 --k 8192 --iters 300 --warmup-ms 1000 > $L/smi_bench_m$m.log 2>&1
  kill $SMI
done
cd $OUT && tar czf logs.tgz logs
echo "M N K | mxgemm us: sustained r1, burst r1, sustained r2, burst r2 | cuBLASLt fp8 us: same | cuBLAS bf16 us: same"
for t in wo mx wt; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_w300_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_w0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_w300_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, "|"}' logs/${t}_w0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${t}_w300_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${t}_w0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16}' logs/${t}_w300_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $16, "|"}' logs/${t}_w0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_w300_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/${t}_w0_r1.log) | sed "s/^/$t /"
done
for m in 1 64; do
  echo "nvidia-smi during weight-only $m x 28672 x 8192 (1 s of back-to-back runs per method): samples, then the SM clock and power of the busiest quarter"
  awk -F', ' 'NR > 1 {print $2, $3}' logs/smi_m$m.log | sed 's/ MHz//; s/ W//' | sort -k2 -n -r | head -n 40 | awk '{c += $1; p += $2; n++} END {printf "  top-40 power samples: mean SM %.0f MHz, %.0f W\n", c / n, p / n}'
  awk -F', ' 'NR > 1 {print $4}' logs/smi_m$m.log | sort | uniq -c | sort -rn | head -3
done
rm -rf logs
