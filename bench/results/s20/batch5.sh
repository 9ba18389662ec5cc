#!/usr/bin/env bash
# Session 20 batch 5: 128-K stages in the two-warpgroup values form up to 64 rows (w7; w8: up
# to 128 rows) against head and w6 (bbbb752): GPU suite and decode suites on w7; 33..64 and
# 128 rows, two rounds.
cd .device/s20
for f in head/*.xz w6/*.xz w7/*.xz w8/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./w7/mxgemm_gpu_tests > $OUT/gpu_tests_w7.log 2>&1; echo "gpu suite w7 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_w7.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
run decmx w7 --suite decode --iters 30
run decwo w7 --mode weight-only --suite decode --iters 30
for round in 1 2; do
  for v in head w6 w7 w8; do
    run mx $v --m 48,64 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 64 --n 8192 --k 8192,28672 --iters 30
    run wo $v --mode weight-only --m 64 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 64 --n 8192 --k 8192,28672 --iters 30
  done
  for v in head w7 w8; do
    run m128 $v --m 128 --n 8192,28672 --k 8192 --iters 30
    run w128 $v --mode weight-only --m 128 --n 8192 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
geo() { grep -A3 "geometric mean" $1 | tail -3 | tr -s ' '; }
for f in decmx decwo; do echo "== $f w7"; geo $OUT/${f}_w7.log; done
for f in mx mx2 wo wo2; do for v in head w6 w7 w8; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
for f in m128 w128; do for v in head w7 w8; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
