#!/usr/bin/env bash
# session 15 batch 6: MXFP8's producer issues two weight stages (not the whole ring) before the
# dependency wait (uncommitted, "new") against d456947 ("s3"): GPU suite and A/B, two rounds.
cd .device
for v in s3 new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in s3 new; do
  run ab_$v $v --m 32,64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 16,64 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 4096 --n 8192 --k 8192 --iters 20
done; done
for v in s3 new; do echo "-- ab $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
