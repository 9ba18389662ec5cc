#!/bin/bash
# Session 33 b11: what the weight's scale chunks cost the kernel itself: abl = main with
# ablate_weight_scales.patch (built with -DMXGEMM_ABLATE_WEIGHT_SCALES: no scale TMAs, every
# scale byte 127; timing only, the bench's checks fail) against c2 (main), plain, two rounds.
set -u
L=$OUT/logs; mkdir -p $L
for v in c2 abl; do xz -dc .device/s33/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
S="--m 1,16 --n 8192,28672 --k 8192 --iters 30"
for round in 1 2; do
  for v in c2 abl; do
    timeout 100 /tmp/bench_$v --mode weight-only $S > $L/wo_${v}_r$round.log 2>&1
    timeout 100 /tmp/bench_$v $S > $L/mx_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
echo "mode M N K: c2 r1, abl r1, c2 r2, abl r2 (us)"
for t in wo mx; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_abl_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_abl_r2.log) | sed "s/^/$t /"
done
rm -rf logs
