#!/usr/bin/env bash
# Session 31 batch 6: the weight-only decode suite, main (s29/c3) and the committed library
# (s31/c4), one run each in the same call.
B=.device/s31/c4; OLD=.device/s29/c3
for d in $B $OLD; do (cd $d && xz -d -k -f mxgemm_bench.xz; chmod +x mxgemm_bench); done
mkdir -p $OUT/logs
for b in $OLD $B; do
  t=$(echo ${b#.device/} | tr / _)
  timeout 280 $b/mxgemm_bench --mode weight-only --suite decode --iters 20 > $OUT/logs/decode_$t.log 2>&1 || echo "$t rc=$?"
  grep -A2 "geometric mean" $OUT/logs/decode_$t.log | sed -n 2p; tail -1 $OUT/logs/decode_$t.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
