#!/bin/bash
# Session 62, call 1: bench/results/s61/slot_size.patch (the 256-row tiles' promotion slot sized to
# the 8 accumulators past the high parts: 8 KB a CTA instead of 128 KB) before it lands.
# (T) the patched GPU suite; (S) memcheck on the tests that promote into the slot;
# (P) two alternated rounds, patched against main a4a2b7a, both modes, at the shapes that promote
# (K = 28672) and one that does not (K = 8192).
# Built here: main's bench as .device/s61c/mxgemm_bench.xz (copied to .device/s62/), then
# `git apply bench/results/s61/slot_size.patch` and mxgemm_bench / mxgemm_gpu_tests rebuilt into
# .device/s62/*_slot.xz. Carry [".device/s62"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_slot mxgemm_gpu_tests_slot; do
  xz -dc .device/s62/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 260 /tmp/mxgemm_gpu_tests_slot > $L/tests_slot.log 2>&1; stamp "GPU suite (slot) rc=$?"
limited 120 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_slot \
  --gtest_filter='GpuStreamGemm.WideTilesAndLongKMatchReference:GpuWeightOnly.PromotedSums*' > $L/memcheck_slot.log 2>&1
stamp "memcheck (slot) rc=$?"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    vs="mxgemm_bench_slot mxgemm_bench"; [ $r = 2 ] && vs="mxgemm_bench mxgemm_bench_slot"
    for v in $vs; do
      limited 30 /tmp/$v --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode > $L/P${mode}_${v}_r$r.log 2>&1
      limited 20 /tmp/$v --m 4096 --n 28672 --k 8192 --iters 20 --mode $mode > $L/Q${mode}_${v}_r$r.log 2>&1
      stamp "P/Q $mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite (slot)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_slot.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|PASSED|FAILED" logs/memcheck_slot.log | tail -4
for r in 1 2; do
  echo "== round $r: M N K | slot, main (us) | cuBLAS bf16 (main's run) | check (slot)"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    for set in P Q; do
      paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${set}${mode}_mxgemm_bench_slot_r$r.log) \
            <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8}' logs/${set}${mode}_mxgemm_bench_r$r.log) \
            <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${set}${mode}_mxgemm_bench_slot_r$r.log)
    done
  done
done
cat logs/summary.txt
rm -rf logs
