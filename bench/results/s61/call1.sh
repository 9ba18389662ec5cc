#!/bin/bash
# Session 61, call 1 (session 60's next.sh, binaries rebuilt from 6331120 into .device/s61b): ring5.patch (the 192- and 256-row
# tiles ring over all their stage slots, 5 / 6, where no item promotes, and over one fewer where
# items do, the spare slot then holding the promoted sums' high parts) against main 379f50f.
# (T) ring5's GPU suite; (P) three alternated rounds, both modes, 512 / 1024 / 2048 / 4096 x 8192
# x 8192 (no promotion: the 5-stage ring) and 2048 x 8192 x 28672 (promotes: 4 stages, as main).
# Build here first (as bench/results/s60/README.md), into .device/s61b/:
#   mxgemm_bench.xz            main's build (a3ffb28 or later, before the patch)
#   mxgemm_bench_ring5.xz, mxgemm_gpu_tests_ring5.xz   with `git apply bench/results/s60/ring5.patch`
# Carry [".device/s61b"]. On an H200 it times the same (its columns are older than session 58).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_ring5 mxgemm_gpu_tests_ring5; do
  xz -dc .device/s61b/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 240 /tmp/mxgemm_gpu_tests_ring5 > $L/tests_ring5.log 2>&1; stamp "GPU suite (ring5) rc=$?"
for r in 1 2 3; do
  for mode in weight-only mxfp8; do
    for v in mxgemm_bench_ring5 mxgemm_bench; do
      limited 40 /tmp/$v --m 512,1024,2048,4096 --n 8192 --k 8192 --iters 20 --mode $mode > $L/P${mode}_${v}_r$r.log 2>&1
      limited 20 /tmp/$v --m 2048 --n 8192 --k 28672 --iters 20 --mode $mode > $L/Q${mode}_${v}_r$r.log 2>&1
      stamp "P/Q $mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite (ring5)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_ring5.log | tail -8
for r in 1 2 3; do
  echo "== round $r: M N K | ring5, main (us) | cuBLAS bf16 (main's run) | check (ring5)"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    for set in P Q; do
      paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${set}${mode}_mxgemm_bench_ring5_r$r.log) \
            <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8}' logs/${set}${mode}_mxgemm_bench_r$r.log) \
            <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${set}${mode}_mxgemm_bench_ring5_r$r.log)
    done
  done
done
cat logs/summary.txt
rm -rf logs
