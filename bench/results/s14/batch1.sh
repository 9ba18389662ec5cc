#!/usr/bin/env bash
# session 14 batch 1: the fused activation conversion (uncommitted working tree, "new") against
# main at 61930a1 ("base"): its GPU tests first (a hang guard), then the same-run A/B, two rounds.
cd .device
for v in base new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 60 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Fused*' > $OUT/fused_test.log 2>&1; echo "fused test rc=$?"; grep -E "^\[  (PASSED|FAILED) |Failure|skipped" $OUT/fused_test.log | head
timeout 200 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.*:GpuWeightOnly.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run ab_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 40,200 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 128 --n 28672 --k 8192 --iters 20
done; done
for v in base new; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
