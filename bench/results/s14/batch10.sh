#!/usr/bin/env bash
# session 14 batch 10: the MXFP8 pre-passes prefetch into L2 the weight bytes the streaming
# kernel's CTAs load first (uncommitted, "pf") against 9e5aa3a ("head14"): the streaming /
# GEMM tests, then the A/B, two rounds.
cd .device
for v in head14 pf; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 150 ./pf/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in head14 pf; do
  run ab_$v $v --m 32,64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 16,32 --n 28672 --k 8192 --iters 30
  run ab_$v $v --m 2048 --n 8192 --k 8192 --iters 20
done; done
for v in head14 pf; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
