#!/usr/bin/env bash
# Session 29 batch 6: c3 (06bd5c1: whole tiles for the fp16 form of 32 rows) GPU suite; c4 (c3 +
# kStageGroups: one wgmma group a ring stage at 64 rows, not landed yet) against c3 at 64 rows in
# the same call, rounds alternated; then c4's GPU suite and memcheck of 64-row tests.
for d in c3 c4; do (cd .device/s29/$d && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done); done
mkdir -p $OUT/logs
timeout 200 .device/s29/c3/mxgemm_gpu_tests > $OUT/logs/gpu_tests_c3.log 2>&1; echo "c3 gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests_c3.log | head -8
grep -A4 "RUN.*Fp16FormWholeTiles" $OUT/logs/gpu_tests_c3.log | grep -E "OK|SKIP|FAIL"
for r in 1 2; do
  for b in c3 c4; do
    B=.device/s29/$b/mxgemm_bench
    timeout 60 $B --m 64 --n 8192,28672 --k 28672,8192 --compare-kernel bf16-values --iters 20 > $OUT/logs/mx_${b}_r$r.log 2>&1 || echo "mx $b rc=$?"
    timeout 60 $B --mode weight-only --m 48,64 --n 28672 --k 8192 --iters 20 > $OUT/logs/wo_${b}_r$r.log 2>&1 || echo "wo $b rc=$?"
  done
done
grep -h "checks" $OUT/logs/mx_*.log $OUT/logs/wo_*.log | sort | uniq -c
echo "== tag: M N K us / compare-column us (x floor)"
for f in $OUT/logs/mx_*.log $OUT/logs/wo_*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>16 {printf "%s %sx%sx%s %s/%s (%s)\n", t,$1,$2,$3,$5,$20,$25}' $f
done | sort -k2,2 -k1,1
timeout 200 .device/s29/c4/mxgemm_gpu_tests > $OUT/logs/gpu_tests_c4.log 2>&1; echo "c4 gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests_c4.log | head -8
timeout 80 compute-sanitizer --tool memcheck .device/s29/c4/mxgemm_gpu_tests \
  --gtest_filter='GpuStreamFp16Form.GivesThe*:GpuStreamGemm.EveryMFrom1To80InTheBf16ValuesForm' > $OUT/logs/memcheck_c4.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck_c4.log | head -4
cd $OUT && tar czf logs.tgz logs && rm -rf logs
