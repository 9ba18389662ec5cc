#!/usr/bin/env bash
# Session 30 batch 2: b1 had four warpgroups at 64 rows (s30/c1) 4-6% faster at N = 28672 with
# K = 28672 but 17% slower at 8192^2 (32 tiles of 256 rows). s30/c2 = c1 + the split-K schedule
# (64-row tiles, K quartered among the warpgroups) at 64 rows where it fills the SMs (N about
# 8192), against s29/c3 (main), same call, rounds alternated, over the N of the decode suite.
NEW=.device/s30/${BIN:-c2}; OLD=.device/s29/c3
for d in $NEW $OLD; do (cd $d && for f in mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $NEW; do
    t=$(basename $b)_r$r
    timeout 100 $b/mxgemm_bench --m 48,64 --n 1024,4096,8192,14336,28672 --k 8192 --compare-kernel bf16-values --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --m 64 --n 4096,8192 --k 4096,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/mk_$t.log 2>&1 || echo "mk $t rc=$?"
    timeout 100 $b/mxgemm_bench --mode weight-only --m 64 --n 4096,8192,14336 --k 8192 --iters 20 > $OUT/logs/wo_$t.log 2>&1 || echo "wo $t rc=$?"
  done
done
grep -h "checks" $OUT/logs/*.log | sort | uniq -c
echo "== tag: M N K us / compare-column us (x floor)"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s)\n", t,$1,$2,$3,$5,$20,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
