#!/usr/bin/env bash
# session 16 batch 2: the skinny kernel counts its partial tiles after its loop instead of
# after each segment (uncommitted, "new") against a7ff1c4 ("base"): GPU suite, A/B on the
# shapes the skinny kernel takes, two rounds; the timeline of the new one.
cd .device/s16
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./gpu_tests_new > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run ab_$v bench_$v --m 1,8 --n 8192,28672 --k 8192 --iters 30
  run ab_$v bench_$v --m 1,8 --n 8192 --k 28672 --iters 30
  run ab_$v bench_$v --m 1,8,16 --n 1024,4096 --k 4096,8192 --iters 30
  run ab_$v bench_$v --m 16 --n 8192 --k 8192 --iters 30
  run abwo_$v bench_$v --mode weight-only --m 1,8 --n 4096,8192 --k 8192 --iters 30
done; done
MXGEMM_TRACE=1 timeout 100 ./bench_trace --m 1,8 --n 8192,28672 --k 8192 --iters 20 > $OUT/trace.log 2>&1; echo "trace rc=$?"
for v in base new; do for f in ab abwo; do echo "-- $f $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s,%s) ", $1"x"$2"x"$3, $5, $10, $25}' $OUT/${f}_$v.log; echo; done; done
grep "^TRACE skinny" $OUT/trace.log | awk '{key=$1" "$2" "$3" "$4" "$5" "$6; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | sed 's/ | /\n   /g; s/ || /\n   /g'
