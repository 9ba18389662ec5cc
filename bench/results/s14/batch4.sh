#!/usr/bin/env bash
# session 14 batch 4: fused conversion v2 (first piece static, the rest claimed; a piece's 8 loads
# a lane at once; the converters' first loads ahead of the weight prologue; relaxed polls):
# tests, the timeline (trace build), and the A/B against 61930a1 ("base").
cd .device
for v in base new trace; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 120 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/tests.log | head
for m in 64 512 1024; do
  MXGEMM_TRACE=1 timeout 60 ./trace/mxgemm_cli --m $m --n 8192 --k 8192 --iters 3 > $OUT/trace_m$m.log 2>&1; echo "trace $m rc=$?"
  awk '/^trace M=/{buf=""} {buf=buf $0 "\n"} /poller all ready|conv exit/{last=buf} END{printf "%s", last}' $OUT/trace_m$m.log
done
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in base new; do
  run ab_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
done
for v in base new; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
