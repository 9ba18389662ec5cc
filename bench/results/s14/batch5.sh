#!/usr/bin/env bash
# session 14 batch 5: interleaved halves (a CTA with half a tile's K runs every other stage of
# the whole K, so that all CTAs stand at about the same K; uncommitted, "new") against 61930a1
# ("base"): the streaming kernel's tests, then the A/B, two rounds, MXFP8 and weight-only.
cd .device
for v in base new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 150 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.*:GpuWeightOnly.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run ab_$v $v --m 64,128,200,256,512 --n 8192 --k 8192 --iters 20
  run wo_$v $v --m 64,128,256 --n 8192 --k 8192 --iters 20 --mode weight-only
  run ab_$v $v --m 128 --n 28672 --k 8192 --iters 20
done; done
for v in base new; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; echo "   wo:"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/wo_$v.log; echo; done
