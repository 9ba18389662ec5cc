#!/usr/bin/env bash
# session 12 batch 8: the fused activation conversion (stream_fused_activation.cuh; "fused")
# against main ("head" = be5f20a): its GPU test first (stop if it fails), the GPU suite,
# memcheck of the fused test, then an A/B on the mid shapes, MXFP8.
cd .device
for v in head fused; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 60 ./fused/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Fused*' > $OUT/fused_test.log 2>&1; rc=$?; echo "fused test rc=$rc"
grep -E "OK|FAILED|skipped|Failure" $OUT/fused_test.log | head -12
if [ $rc -ne 0 ]; then tail -30 $OUT/fused_test.log; exit 1; fi
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in head fused; do run ab_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20; done
for v in head fused; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
timeout 150 ./fused/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 60 compute-sanitizer --tool memcheck ./fused/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.Fused*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY" $OUT/memcheck.log | tail -1
