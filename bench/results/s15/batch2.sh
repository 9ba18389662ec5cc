#!/usr/bin/env bash
# session 15 batch 2: the staged store of 16-bit outputs (uncommitted, "new") against 08b4da0
# ("base"): GPU suite, memcheck and racecheck of the new tests, A/B (mid two rounds, large
# one), and the timeline of the new code (trace build).
cd .device
for v in base new trace; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
F='GpuStreamGemm.StagedStore*:GpuWeightOnly.StagedStore*'
timeout 150 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter="$F" > $OUT/sanitizers.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizers.log | tail -3
timeout 150 compute-sanitizer --tool racecheck ./new/mxgemm_gpu_tests --gtest_filter="$F" >> $OUT/sanitizers.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizers.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run mid_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run mid_$v $v --mode weight-only --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
done; done
for v in base new; do
  run large_$v $v --m 2048,4096,8192 --n 8192 --k 8192 --iters 20
  run large_$v $v --mode weight-only --m 2048,4096,8192 --n 8192 --k 8192 --iters 20
  run large_$v $v --m 4096 --n 28672 --k 8192 --iters 20
  run large_$v $v --m 4096 --n 4096 --k 4096 --iters 20
done
MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_bench --m 512,4096 --n 8192 --k 8192 --iters 20 > $OUT/trace.log 2>&1
for f in mid large; do for v in base new; do echo "-- $f $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log; echo; done; done
grep TRACE $OUT/trace.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | sed 's/| start/\n  start/'
