#!/usr/bin/env bash
# Session 30 batch 3: the two-fragment values loop loads the next sub-stage's weight bytes and
# decodes its scales while the current wgmmas run (kLoadAhead: MXFP8 activations from 33 rows,
# the permuted K order, two-warpgroup tiles), s30/c3, against s29/c3 (main), same call, rounds
# alternated. MXFP8 (fp16 form; bf16 form, E5M2 operands, in the comparison column).
# (As first run, b3, both binaries were tagged c3 and the new one overwrote the old one's logs;
# the tags are now s29_c3 and s30_c3: b4 is the same-call comparison.)
NEW=.device/s30/${BIN:-c3}; OLD=.device/s29/c3
for d in $NEW $OLD; do (cd $d && for f in mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $NEW; do
    t=$(echo ${b#.device/} | tr / _)_r$r
    timeout 100 $b/mxgemm_bench --m 48,64 --n 8192,28672 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --m 128,256 --n 8192,28672 --k 8192 --compare-kernel bf16-values --iters 20 > $OUT/logs/mm_$t.log 2>&1 || echo "mm $t rc=$?"
    timeout 100 $b/mxgemm_bench --m 512,4096 --n 8192 --k 8192 --iters 20 > $OUT/logs/ml_$t.log 2>&1 || echo "ml $t rc=$?"
  done
done
grep -h "checks" $OUT/logs/*.log | sort | uniq -c
echo "== tag: M N K us / compare-column us (x floor) [ratio vs cuBLAS bf16]"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s) [%s]\n", t,$1,$2,$3,$5,$20,$25,$10}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
