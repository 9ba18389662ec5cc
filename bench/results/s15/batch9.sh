#!/usr/bin/env bash
# session 15 batch 9: the two-warpgroup kernels compute their stream-K range bounds in 32 bits
# where they fit (uncommitted, "new") against 1b96b01 ("s4"): GPU suite and A/B, two rounds.
cd .device
for v in s4 new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in s4 new; do
  run ab_$v $v --m 64,128,256 --n 8192 --k 8192 --iters 20
  run ab_$v $v --mode weight-only --m 64,128 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 64,256 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 2048 --n 8192 --k 28672 --iters 20
done; done
for v in s4 new; do echo "-- ab $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
