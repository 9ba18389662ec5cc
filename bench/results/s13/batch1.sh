#!/usr/bin/env bash
# session 13 batch 1: the in-kernel activation dequantization (stream_convert_x.cuh): its
# tests first (stop on failure), an A/B against the pre-pass path in the same binary, the
# GPU suite, memcheck of the new tests.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 20 ./new/mxgemm_bench --m 33,300 --n 144 --k 272 --iters 20 > $OUT/smoke.log 2>&1; src=$?; echo "smoke rc=$src"; tail -4 $OUT/smoke.log; [ $src -eq 0 ] || exit 1
timeout 120 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.InKernel*' > $OUT/inkernel_test.log 2>&1; rc=$?; echo "in-kernel tests rc=$rc"
grep -E "^\[  (OK|FAILED) |Failure|differ" $OUT/inkernel_test.log | head -20
if [ $rc -ne 0 ]; then tail -40 $OUT/inkernel_test.log; exit 1; fi
run() { local name=$1; shift; timeout 150 ./new/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for path in prepass in-kernel; do
  run ab_$path --mx-activation $path --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$path --mx-activation $path --m 128,256 --n 28672 --k 8192 --iters 20
  run ab_$path --mx-activation $path --m 2048,4096 --n 8192 --k 8192 --iters 10
done
for path in prepass in-kernel; do echo "-- $path"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$path.log; echo; done
grep -h FAIL $OUT/ab_*.log | head -5
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 120 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.InKernelActivationPropagates*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY" $OUT/memcheck.log | tail -1
