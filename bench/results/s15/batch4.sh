#!/usr/bin/env bash
# session 15 batch 4: paired halves exchanged both ways, each CTA storing half of the tile
# (uncommitted, "new") against 285d932 ("s1", the staged store) and 08b4da0 ("base"): GPU
# suite, memcheck and racecheck of the paired and staged tests, A/B, timeline (trace build).
cd .device
for v in base s1 new trace; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
F='GpuStreamGemm.HalvesOfTheK*:GpuStreamGemm.StagedStore*:GpuWeightOnly.StagedStore*'
timeout 150 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter="$F" > $OUT/sanitizers.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/sanitizers.log | tail -2
timeout 200 compute-sanitizer --tool racecheck ./new/mxgemm_gpu_tests --gtest_filter="$F" >> $OUT/sanitizers.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $OUT/sanitizers.log | tail -2
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in s1 new; do
  run mid_$v $v --m 40,64,128,200,256 --n 8192 --k 8192 --iters 20
  run mid_$v $v --mode weight-only --m 64,128,256 --n 8192 --k 8192 --iters 20
done; done
for v in base s1 new; do
  run other_$v $v --m 128,256 --n 8192 --k 28672 --iters 20
  run other_$v $v --m 4096 --n 28672 --k 8192 --iters 20
  run other_$v $v --mode weight-only --m 4096 --n 28672 --k 8192 --iters 20
done
MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_bench --m 64,128,256 --n 8192 --k 8192 --iters 20 > $OUT/trace.log 2>&1
MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_bench --mode weight-only --m 256,4096 --n 8192 --k 8192 --iters 20 > $OUT/trace_wo.log 2>&1
for f in mid other; do for v in base s1 new; do [ -f $OUT/${f}_$v.log ] || continue; echo "-- $f $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log; echo; done; done
for t in trace trace_wo; do echo "== $t"; grep TRACE $OUT/$t.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | grep -v "m=200 n=272" | sed 's/| start/\n  start/'; done
