#!/usr/bin/env bash
# Session 29 batch 1: deeper rings at 32 and 64 rows (c1: kStages 5 at 32 rows, 6 at 64, from 4;
# s28's six_stages_at_64_rows.patch plus 5 at 32) against s28's c4 bench (4 stages, the library
# on main) in the same call, rounds alternated; then the whole GPU suite with c1.
NEW=.device/s29/${BIN:-c1}; OLD=.device/s28/c4
for d in $NEW $OLD; do (cd $d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
shapes() { # $1 binary dir, $2 tag, $3 mode
  timeout 60 $1/mxgemm_bench --mode $3 --m 32,64 --n 8192 --k 28672 --iters 20 > $OUT/logs/$2_a.log 2>&1 || echo "$2 a rc=$?"
  timeout 60 $1/mxgemm_bench --mode $3 --m 32,64 --n 28672 --k 8192 --iters 20 > $OUT/logs/$2_b.log 2>&1 || echo "$2 b rc=$?"
}
for r in 1 2; do
  for mode in mxfp8 weight-only; do
    shapes $OLD old_${mode}_r$r $mode
    shapes $NEW new_${mode}_r$r $mode
  done
done
timeout 300 $NEW/mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests.log | head -12
grep -h "checks" $OUT/logs/*_a.log $OUT/logs/*_b.log | sort | uniq -c
echo "== tag: M N K us (x cuBLAS bf16, x floor)"
for f in $OUT/logs/*_r?_?.log; do
  awk -v t=$(basename $f .log) '$4=="|" {printf "%s %sx%sx%s %s (%s, %s)\n", t,$1,$2,$3,$5,$10,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
