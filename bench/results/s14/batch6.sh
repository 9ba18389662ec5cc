#!/usr/bin/env bash
# session 14 batch 6: interleaved halves + the two-part fixup (uncommitted, "new"; only the
# two-warpgroup values kernels differ from 61930a1, "base"): the whole GPU suite, memcheck of
# the streaming kernel's tests, racecheck of its split tests, and the A/B (mid M two rounds,
# large M one), MXFP8 and weight-only.
cd .device
for v in base new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
timeout 200 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 120 compute-sanitizer --tool racecheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run mid_$v $v --m 40,64,128,200,256 --n 8192 --k 8192 --iters 20
  run mid_$v $v --m 128,256 --n 8192 --k 28672 --iters 20
  run wo_$v $v --m 64,128,256 --n 8192 --k 8192 --iters 20 --mode weight-only
done; done
for v in base new; do
  run large_$v $v --m 2048,4096 --n 8192 --k 8192 --iters 20
  run large_$v $v --m 2048 --n 4096 --k 4096 --iters 20
done
for f in mid wo large; do for v in base new; do echo "-- $f $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log; echo; done; done
