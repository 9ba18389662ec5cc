#!/usr/bin/env bash
# Session 31 batch 4: the committed gating of the fp16 values form for BF16 activations
# (bf16_rows_in_f16: 33..128 rows on weights of N >= 8192 and >= 2^26 elements, 17..32 rows over
# 2^27), s31/c4: its GPU suite, memcheck of the new tests, and weight-only timings against main
# (s29/c3) in plain mode (no comparison column: a later column runs warmer and slower),
# two rounds alternated.
B=.device/s31/${BIN:-c4}; OLD=.device/s29/c3
for d in $B $OLD; do (cd $d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
timeout 300 $B/mxgemm_gpu_tests > $OUT/logs/gpu.log 2>&1; echo "gpu rc=$?"; tail -2 $OUT/logs/gpu.log
grep -E "^\[  FAILED" $OUT/logs/gpu.log | head
timeout 200 compute-sanitizer --tool memcheck $B/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Bf16*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $OUT/logs/memcheck.log
for r in 1 2; do
  for b in $OLD $B; do
    t=$(echo ${b#.device/} | tr / _)_r$r
    timeout 100 $b/mxgemm_bench --mode weight-only --m 17,32,64,128 --n 8192,28672 --k 8192 --iters 20 > $OUT/logs/a_$t.log 2>&1 || echo "a $t rc=$?"
    timeout 60 $b/mxgemm_bench --mode weight-only --m 64,128 --n 8192 --k 28672 --iters 20 > $OUT/logs/b_$t.log 2>&1 || echo "b $t rc=$?"
    timeout 60 $b/mxgemm_bench --mode weight-only --m 48,256 --n 14336 --k 14336 --iters 20 > $OUT/logs/c_$t.log 2>&1 || echo "c $t rc=$?"
  done
done
echo "== tag M N K us [x cuBLAS bf16] (x floor)"
for f in $OUT/logs/[abc]_*.log; do
  awk -v t=$(basename $f .log | cut -c3-) '$4=="|" && $1+0>8 {printf "%sx%sx%s %s %s [%s] (%s)\n", $1,$2,$3,t,$5,$10,$21}' $f
done | sort -t x -k1,1n -k2,2n -k3,3n
cd $OUT && tar czf logs.tgz logs && rm -rf logs
