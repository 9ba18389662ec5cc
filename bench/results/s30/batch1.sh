#!/usr/bin/env bash
# Session 30 batch 1: s29's lead for 64 rows (four_warpgroups_at_64_rows.patch: four math
# warpgroups on 256-row tiles, the promoted sum in global memory) as s30/c1, against s29/c3
# (06bd5c1, the library on main), same call, rounds alternated. MXFP8 (fp16 form; bf16 form in
# the comparison column), weight-only BF16 and FP16, at 48 and 64 rows.
NEW=.device/s30/${BIN:-c1}; OLD=.device/s29/c3
for d in $NEW $OLD; do (cd $d && for f in mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $NEW; do
    t=$(basename $b)_r$r
    timeout 100 $b/mxgemm_bench --m 48,64 --n 8192,28672 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --mode weight-only --m 64 --n 8192,28672 --k 8192,28672 --iters 20 > $OUT/logs/wo_$t.log 2>&1 || echo "wo $t rc=$?"
    timeout 100 $b/mxgemm_bench --mode weight-only-fp16 --m 64 --n 28672 --k 8192 --iters 20 > $OUT/logs/wf_$t.log 2>&1 || echo "wf $t rc=$?"
  done
done
grep -h "checks" $OUT/logs/*.log | sort | uniq -c
echo "== tag: M N K us / compare-column us (x floor)"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s)\n", t,$1,$2,$3,$5,$20,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
