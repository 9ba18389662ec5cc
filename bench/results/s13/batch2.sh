#!/usr/bin/env bash
# session 13 batch 2 (and 3): the converter loads a row ahead, 56 registers (math 216); batch 3:
# integer-pipe conversion (e4m3x2_to_bf16x2_biased). Its tests, then the A/B against the pre-pass path.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 120 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.InKernel*' > $OUT/inkernel_test.log 2>&1; rc=$?; echo "in-kernel tests rc=$rc"
grep -E "^\[  (OK|FAILED) |Failure|differ" $OUT/inkernel_test.log | head -20
if [ $rc -ne 0 ]; then tail -40 $OUT/inkernel_test.log; exit 1; fi
run() { local name=$1; shift; timeout 150 ./new/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for path in prepass in-kernel; do
  run ab_$path --mx-activation $path --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$path --mx-activation $path --m 128,256 --n 28672 --k 8192 --iters 20
done
for path in prepass in-kernel; do echo "-- $path"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$path.log; echo; done
grep -h FAIL $OUT/ab_*.log | head -5
