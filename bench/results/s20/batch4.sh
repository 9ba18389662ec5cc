#!/usr/bin/env bash
# Session 20 batch 4: 128-K stages also in the four-warpgroup values form (w6; w6s3: 3 stages
# instead of 4) against head and w4 (eb2a483, codes form only): GPU suite and decode suites on
# w6; the values shapes (9..32 rows) and the codes shapes, two rounds.
cd .device/s20
for f in head/*.xz w4/*.xz w6/*.xz w6s3/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./w6/mxgemm_gpu_tests > $OUT/gpu_tests_w6.log 2>&1; echo "gpu suite w6 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_w6.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
run decmx w6 --suite decode --iters 30
run decwo w6 --mode weight-only --suite decode --iters 30
for round in 1 2; do
  for v in head w6 w6s3; do
    run mx $v --m 20,32 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 32 --n 8192 --k 8192,28672 --iters 30
    run wo $v --mode weight-only --m 12,16,32 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 16,32 --n 8192 --k 8192,28672 --iters 30
  done
  for v in head w4 w6 w6s3; do
    run cx $v --m 16 --n 8192 --k 28672 --iters 30
    run cwo $v --mode weight-only --m 1,8 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
geo() { grep -A3 "geometric mean" $1 | tail -3 | tr -s ' '; }
for f in decmx decwo; do echo "== $f w6"; geo $OUT/${f}_w6.log; done
for f in mx mx2 wo wo2; do for v in head w6 w6s3; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
for f in cx cwo; do for v in head w4 w6 w6s3; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
