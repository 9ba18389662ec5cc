#!/usr/bin/env bash
# session 15 batch 5: an activation read in place (weight-only) loaded with each stage's weight
# from the first stage on (uncommitted, "new") against 206851a ("s2"): GPU suite, A/B, and the
# timeline (trace build, fixed: one report per translation unit).
cd .device
for v in s2 new trace; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in s2 new; do
  run ab_$v $v --mode weight-only --m 32,64,128,256,512 --n 8192 --k 8192 --iters 20
  run ab_$v $v --mode weight-only --m 16,32,64 --n 28672 --k 8192 --iters 20
  run ab_$v $v --mode weight-only --m 32,64 --n 4096 --k 4096 --iters 20
  run ab_$v $v --m 64,256 --n 8192 --k 8192 --iters 20
done; done
MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_bench --m 64,128,256,512 --n 8192 --k 8192 --iters 20 > $OUT/trace.log 2>&1
MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_bench --mode weight-only --m 64,256,4096 --n 8192 --k 8192 --iters 20 > $OUT/trace_wo.log 2>&1
for v in s2 new; do echo "-- ab $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
for t in trace trace_wo; do echo "== $t"; grep TRACE $OUT/$t.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | grep -v "m=200 n=272" | sed 's/| start/\n  start/'; done
