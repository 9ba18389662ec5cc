#!/usr/bin/env bash
# session 14 batch 11: paired halves (a tile's two halves as a cluster of two, the second
# CTA's partial through distributed shared memory; uncommitted, "pair") against 9e5aa3a
# ("head14"): the halves test first (hang guard), the GPU suite, memcheck and racecheck of the
# streaming kernel's tests, then the A/B, two rounds, MXFP8 and weight-only.
cd .device
for v in head14 pair; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 60 ./pair/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Halves*' > $OUT/halves_test.log 2>&1; echo "halves test rc=$?"; grep -E "^\[  (PASSED|FAILED) |Failure" $OUT/halves_test.log | head -5
timeout 200 ./pair/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests.log | head
timeout 200 compute-sanitizer --tool memcheck ./pair/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 120 compute-sanitizer --tool racecheck ./pair/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Halves*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in head14 pair; do
  run ab_$v $v --m 40,64,128,200,256 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 64,128,256 --n 8192 --k 8192 --iters 20 --mode weight-only
done; done
for v in head14 pair; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
