#!/usr/bin/env bash
# session 13 batch 9: the permuted K order for MXFP8 activations of more than 16 rows ("perm2":
# the pre-pass writes each 32-block in the permuted order, the weight fragment takes four
# 8-byte loads a stage). Its GPU suite first (stop on failure), an A/B against the committed
# head ("new"), then the mid suite (MXFP8).
cd .device
for v in new perm2; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 240 ./perm2/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; rc=$?; echo "gpu suite rc=$rc"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -12
if [ $rc -ne 0 ]; then grep -B2 -A12 "Failure" $OUT/gpu_tests.log | head -60; exit 1; fi
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in new perm2; do
  run ab_$v $v --m 32,64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 128,256 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 2048,4096 --n 8192 --k 8192 --iters 20
done
for v in new perm2; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
grep -h "FAIL" $OUT/ab_*.log | head -4
run mid_mx perm2 --suite mid --iters 20
tail -6 $OUT/mid_mx.log
