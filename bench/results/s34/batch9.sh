#!/bin/bash
# Session 34 b9: session 29's four math warpgroups at 64 rows (256-row weight tiles, half the
# activation traffic per weight byte; bench/results/s29/four_warpgroups_at_64_rows.patch, f4)
# against main (c0), sustained and burst (--warmup-ms 0), two rounds alternated: does the
# stream's structure hold 64 rows where the power cap does not?
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 f4; do xz -dc .device/s34/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
W="--mode weight-only --m 64 --n 28672,8192 --k 8192 --iters 30"
X="--mode weight-only --m 64 --n 8192 --k 28672 --iters 30"
for round in 1 2; do
  for w in 300 0; do
    [ $round = 2 ] && [ $w = 300 ] && continue  # sustained: one round (session 30 ran it twice)
    for v in c0 f4; do
      timeout 100 /tmp/bench_$v $W --warmup-ms $w > $L/W_${v}_w${w}_r$round.log 2>&1
      timeout 100 /tmp/bench_$v $X --warmup-ms $w > $L/X_${v}_w${w}_r$round.log 2>&1
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "M N K | sustained c0 f4 r1 | burst c0 f4 r1, c0 f4 r2 | f4 check"
for t in W X; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_w300_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, "|"}' logs/${t}_f4_w300_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_w0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_f4_w0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_w0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, "|"}' logs/${t}_f4_w0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_f4_w300_r1.log) | sed "s/^/$t /"
done
rm -rf logs
