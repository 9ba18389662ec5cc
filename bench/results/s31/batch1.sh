#!/usr/bin/env bash
# Session 31 batch 1: part of each fragment's E4M3 pairs converted on the integer pipes
# (e4m3x2_to_f16x2_shifted_alu, with a NaN-code watch) in the fp16 values form's permuted
# fragment, to take load off the F2FP pipe (s30 b5). c1: 1 word of 8 (2 pairs of 16) a
# sub-stage, c2: 2 words; s29/c3 = main; same call, rounds alternated. Then c1's GPU suite.
OLD=.device/s29/c3; A=.device/s31/c1; B=.device/s31/c2
for d in $OLD $A $B; do (cd $d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
for r in 1 2; do
  for b in $OLD $A $B; do
    t=$(echo ${b#.device/} | tr / _)_r$r
    timeout 100 $b/mxgemm_bench --m 32,48,64 --n 8192,28672 --k 8192 --iters 20 > $OUT/logs/mx_$t.log 2>&1 || echo "mx $t rc=$?"
    timeout 100 $b/mxgemm_bench --m 64,128,256 --n 8192 --k 28672,8192 --iters 20 > $OUT/logs/mk_$t.log 2>&1 || echo "mk $t rc=$?"
  done
done
timeout 300 $A/mxgemm_gpu_tests > $OUT/logs/gpu_c1.log 2>&1; echo "gpu c1 rc=$?"; tail -3 $OUT/logs/gpu_c1.log
grep -E "FAILED|margin" $OUT/logs/gpu_c1.log | head -20
echo "== tag: M N K us (x floor) [ratio vs cuBLAS bf16]"
for f in $OUT/logs/m*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>8 {printf "%s %sx%sx%s %s (%s) [%s]\n", t,$1,$2,$3,$5,$21,$10}' $f
done | sort -k2,2 -k1,1
grep -l "FAIL\|mismatch" $OUT/logs/m*.log
cd $OUT && tar czf logs.tgz logs && rm -rf logs
