#!/usr/bin/env bash
# Session 30 batch 5: does the F2FP conversion's pipe bound the values forms? s30/c5 =
# ablation_f2fp_as_prmt.patch (timing only: every E4M3 pair conversion, cvt.rn.f16x2.e4m3x2, is
# one PRMT on the ALU instead; the loop has the same instruction count, its values are wrong,
# so the bench's checks fail), against s29/c3 (main), same call, rounds alternated.
NEW=.device/s30/${BIN:-c5}; OLD=.device/s29/c3
for d in $NEW $OLD; do (cd $d && for f in mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $NEW; do
    t=$(echo ${b#.device/} | tr / _)_r$r
    timeout 100 $b/mxgemm_bench --m 16,32,64 --n 8192,28672 --k 8192 --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --m 64,128 --n 8192 --k 28672,8192 --iters 20 > $OUT/logs/mk_$t.log 2>&1 || echo "mk $t rc=$?"
  done
done
echo "== tag: M N K us (x floor) [ratio vs cuBLAS bf16]"
for f in $OUT/logs/*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>8 {printf "%s %sx%sx%s %s (%s) [%s]\n", t,$1,$2,$3,$5,$21,$10}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
