#!/bin/bash
# Session 33 b13: the split schedule's ring as deep as 216 KB allows (c3: main with
# split_stages_to_216k.patch: 5 stages for the 8-row codes form, where 4 fit 200 KB) against
# main (c2), plain, two rounds alternated, at the 8192^2 decode shapes (b12: at 1 x 8192^2 the
# math waits 6.3 us on data and the producer 1.4 us on free stages).
set -u
L=$OUT/logs; mkdir -p $L
for v in c2 c3; do xz -dc .device/s33/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
S="--m 1,4,8,16 --n 8192 --k 8192 --iters 30"
for round in 1 2; do
  for v in c2 c3; do
    timeout 100 /tmp/bench_$v --mode weight-only $S > $L/wo_${v}_r$round.log 2>&1
    timeout 100 /tmp/bench_$v $S > $L/mx_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
echo "mode M N K: c2 r1, c3 r1, c2 r2, c3 r2 (us)"
for t in wo mx; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c2_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c2_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c3_r2.log) | sed "s/^/$t /"
done
grep -l "FAIL\|mismatch" logs/*_c3_*.log
rm -rf logs
