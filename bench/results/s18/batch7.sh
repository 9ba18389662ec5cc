#!/usr/bin/env bash
# Session 18 batch 7 (device; carry [".device"]): the codes forms' scale bytes decoded by a
# shift into the fp32 exponent when all four of a stage are 1..254 (shift =
# head + codes_shift_decode.patch), against head (67ceff0): A/B on the codes-form shapes,
# three rounds, then the GPU suite on shift.
cd .device/s18v
for f in head/*.xz shift/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2 3; do
  for v in head shift; do
    run mx $v --m 12,16 --n 28672 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,8 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for v in head shift; do echo "-- $f $v (us/x floor, rounds 1 2 3)"; table $OUT/${f}_$v.log; done; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
timeout 100 ./shift/mxgemm_gpu_tests > $OUT/gpu_tests_shift.log 2>&1; echo "gpu suite shift rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_shift.log | head -8
