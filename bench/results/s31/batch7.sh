#!/usr/bin/env bash
# Session 31 batch 7: the final gating (17..32 rows keep the bf16 form on the weights whose K it
# splits, split_k_fills), s31/c6: GPU suite, and weight-only 32 x 8192 x 28672 / 32 x 28672 x
# 8192 / 64 x 28672 x 8192 against main (s29/c3) in plain mode, one round.
B=.device/s31/c6; OLD=.device/s29/c3
(cd $B && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done)
(cd $OLD && xz -d -k -f mxgemm_bench.xz; chmod +x mxgemm_bench)
mkdir -p $OUT/logs
timeout 200 $B/mxgemm_gpu_tests > $OUT/logs/gpu.log 2>&1; echo "gpu rc=$?"; tail -1 $OUT/logs/gpu.log
grep -E "^\[  FAILED" $OUT/logs/gpu.log | head
for b in $OLD $B; do
  t=$(echo ${b#.device/} | tr / _)
  timeout 60 $b/mxgemm_bench --mode weight-only --m 32 --n 8192,28672 --k 28672,8192 --iters 20 > $OUT/logs/w_$t.log 2>&1 || echo "$t rc=$?"
  awk -v t=$t '$4=="|" && $1+0>8 {printf "%s %sx%sx%s %s (%s)\n", t,$1,$2,$3,$5,$25}' $OUT/logs/w_$t.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
