#!/bin/bash
# Session 60, call 1: the promoted sums' high parts in shared memory (hi: the 192- and 256-row
# tiles split each promotion's running sum into a bf16 high part, kept in the staging rows'
# shared memory, and the exact rest, left in the accumulator; 256 rows keep 8 of 128
# accumulators in the global slot) against main. (T) the GPU suite of the hi build; (P) three
# alternated rounds, both modes, 384 / 2048 / 4096 x 8192 x 28672 / 8192; (F) FP32 out, which
# promotes every 2048 K; (S) racecheck and memcheck of the wide tiles' long-K test; (N) the new test on a build without the rest's NaN guard
# (mxgemm_gpu_tests_noguard.xz: a0 = r0, a1 = r1 in split_high_part), which it should fail. Built here: .device/s60/mxgemm_bench.xz (main cf8d22a's library =
# 14dcc08's), mxgemm_bench_hi.xz and mxgemm_gpu_tests_hi.xz (this tree). Carry [".device/s60"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_hi mxgemm_gpu_tests_hi mxgemm_gpu_tests_noguard; do
  xz -dc .device/s60/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 200 /tmp/mxgemm_gpu_tests_hi > $L/tests_hi.log 2>&1; stamp "GPU suite (hi) rc=$?"
for r in 1 2 3; do
  for mode in weight-only mxfp8; do
    for v in mxgemm_bench_hi mxgemm_bench; do
      limited 40 /tmp/$v --m 384,2048,4096 --n 8192 --k 28672,8192 --iters 20 --mode $mode > $L/P${mode}_${v}_r$r.log 2>&1
      stamp "P $mode $v r$r rc=$?"
    done
  done
done
for v in mxgemm_bench_hi mxgemm_bench; do
  limited 30 /tmp/$v --m 2048,4096 --n 8192 --k 8192 --iters 20 --mx-out fp32 > $L/F_$v.log 2>&1
  stamp "F fp32 out $v rc=$?"
done
# (N) the new overflow test against a build without the rest's NaN guard: it should fail.
limited 30 /tmp/mxgemm_gpu_tests_noguard --gtest_filter='GpuWeightOnly.PromotedSums*' > $L/noguard.log 2>&1
stamp "N no-guard build, PromotedSums test rc=$? (1 expected)"
# (S) racecheck, then memcheck, of the 256- and 192-row tiles' promotions (high parts in the
# staging rows' shared memory) on the stream-K shapes of WideTilesAndLongKMatchReference.
limited 90 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_hi \
  --gtest_filter='GpuStreamGemm.WideTilesAndLongKMatchReference' > $L/racecheck.log 2>&1; stamp "S racecheck rc=$?"
limited 90 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_hi \
  --gtest_filter='GpuStreamGemm.WideTilesAndLongKMatchReference' > $L/memcheck.log 2>&1; stamp "S memcheck rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite (hi)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_hi.log | tail -8
grep -A3 "PromotedSums" logs/tests_hi.log | grep -E "OK|FAILED" | head -2
echo "== no-guard build"; grep -E "output \(|^\[  (PASSED|FAILED) " logs/noguard.log | head -4
for r in 1 2 3; do
  echo "== round $r: M N K | hi, main (us) | cuBLAS bf16 (main's run) | check (hi)"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/P${mode}_mxgemm_bench_hi_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8}' logs/P${mode}_mxgemm_bench_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/P${mode}_mxgemm_bench_hi_r$r.log)
  done
done
echo "== FP32 out, MXFP8: M N K | hi, main (us) | check (hi)"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/F_mxgemm_bench_hi.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $NF}' logs/F_mxgemm_bench.log)
echo "== sanitizers"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/racecheck.log logs/memcheck.log | tail -6
cat logs/summary.txt
rm -rf logs
