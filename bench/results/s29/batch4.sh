#!/usr/bin/env bash
# Session 29 batch 4: whole tiles for the 32-row tiles (c2: StreamSchedule::make's imbalance
# limit 1.20 instead of 1.10 for kMPad 32, as the codes form has; at 32 x 28672 x K that is 112
# whole 256-row tiles on 112 CTAs instead of 132 stream-K ranges; b3 had the 32-row kernel at
# the TMA ring's rate where tiles are one a CTA) against s28/c4 (main), same call, rounds
# alternated. MXFP8 (fp16 form; bf16 form in the comparison column), weight-only BF16 and FP16.
NEW=.device/s29/${BIN:-c2}; OLD=.device/s28/c4
for d in $NEW $OLD; do (cd $d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $NEW; do
    t=$(basename $b)_r$r
    timeout 100 $b/mxgemm_bench --m 32 --n 14336,28672 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --mode weight-only --m 32 --n 14336,28672 --k 8192 --iters 20 > $OUT/logs/wo_$t.log 2>&1 || echo "wo $t rc=$?"
    timeout 100 $b/mxgemm_bench --mode weight-only-fp16 --m 32 --n 28672 --k 8192 --iters 20 > $OUT/logs/wf_$t.log 2>&1 || echo "wf $t rc=$?"
  done
done
grep -h "checks" $OUT/logs/*.log | sort | uniq -c
echo "== tag: M N K us / compare-column us (x floor)"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s)\n", t,$1,$2,$3,$5,$20,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
