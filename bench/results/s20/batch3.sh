#!/usr/bin/env bash
# Session 20 batch 3: the codes form's 128-K stages (w4: 4 stages, w5: 5) against head:
# GPU suite on w4; MXFP8 9..16 rows and weight-only 1..8 rows on the 224 MB weights, two rounds.
cd .device/s20
for f in head/*.xz w4/*.xz w5/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./w4/mxgemm_gpu_tests > $OUT/gpu_tests_w4.log 2>&1; echo "gpu suite w4 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_w4.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in head w4 w5; do
    run mx $v --m 12,16 --n 28672,8192 --k 8192 --iters 30
    run mx2 $v --m 12,16 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 1,4,8 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 1,4,8 --n 8192 --k 28672 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
for f in mx mx2 wo wo2; do for v in head w4 w5; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
