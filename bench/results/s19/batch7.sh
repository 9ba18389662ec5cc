#!/usr/bin/env bash
# Session 19 batch 7: the committed build (fin = 60ad5d6): GPU suite, both decode suites; the
# streaming kernel with its activation loads evict_last where the weight is read once (sa),
# and with its weight map's L2 promotion 128 bytes (sp), against fin, two rounds; then the
# Python package's tests.
cd .device/s19
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 170 ./fin/mxgemm_gpu_tests > $OUT/gpu_tests_fin.log 2>&1; echo "gpu suite fin rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_fin.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
run decmx fin --suite decode --iters 30
run decwo fin --mode weight-only --suite decode --iters 30
for round in 1 2; do
  for v in fin sa sp; do
    run mx $v --m 12,16,32,64 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 16,32 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 1,8,16,64 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
geo() { grep -A3 "geometric mean" $1 | tail -3 | tr -s ' '; }
for f in decmx decwo; do echo "== $f fin"; table $OUT/${f}_fin.log | tr '\n' ';'; echo; geo $OUT/${f}_fin.log; done
for f in mx mx2 wo; do for v in fin sa sp; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
cd ../..
timeout 200 bash bench/device/python_tests.sh $OUT > $OUT/python_tests.out 2>&1; echo "python tests rc=$?"; tail -5 $OUT/python_tests.out
