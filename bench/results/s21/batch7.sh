#!/usr/bin/env bash
# Session 21 batch 7: a2 = c (9d30774) with the lean scale decode in the two-warpgroup
# natural-order tiles too, but the broadcast multiply (PRMT copies) there: GPU suite on a2;
# a2 against c on weight-only shapes from 48 rows up, two rounds.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./a2/mxgemm_gpu_tests > $OUT/gpu_tests_a2.log 2>&1; echo "gpu suite a2 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_a2.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in c a2; do
    run w64 $v --mode weight-only --m 48,64 --n 28672 --k 8192 --iters 30
    run w64b $v --mode weight-only --m 64 --n 8192 --k 28672 --iters 30
    run wmid $v --mode weight-only --m 128,256 --n 8192 --k 8192 --iters 30
    run wbig $v --mode weight-only --m 2048,8192 --n 8192 --k 8192 --iters 20
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$10}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== a2 against c: us/x cuBLAS bf16, rounds"
for f in w64 w64b wmid wbig; do for v in c a2; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
