#!/bin/bash
# Session 73, call 2 (any H100 or H200; the GPU's name is in logs/smi.log).
# Binaries (sm_90a), carry [".device/next"]: bench.xz and gpu_tests.xz built from this commit
# (the skinny kernel's prepacked values form: the activation box only M rows below 8),
# bench_box8.xz from 88f8778 (call 1's new build: the box always 8 rows, rows past M zero-filled).
#  1. GPU tests: the weight-only suite and the prepack; memcheck on the prepacked tests.
#  2. Prepacked weights at 1..16 rows on the 16 MB and 8 MB weights, M-row boxes against 8-row
#     boxes in alternated order (comparison column: the streaming kernel on the same weight), and
#     the natural order.
# BUDGET (default 300) caps the whole call.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
unpack bench bench_box8 gpu_tests
limited 100 /tmp/gpu_tests --gtest_filter='GpuWeightOnly.*:GpuPrepack.*' > $L/tests_wo.log 2>&1
stamp "tests GpuWeightOnly+GpuPrepack rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_wo.log | tr '\n' ' ')"
limited 60 compute-sanitizer --tool memcheck /tmp/gpu_tests --gtest_filter='GpuWeightOnly.PrepackedWeight*' > $L/memcheck.log 2>&1
stamp "memcheck prepacked rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.log)"
cd $OUT
small() {  # small NAME BENCH ORDER: 1..16 rows on 4096^2 and 1024 x 8192
  local nk
  for nk in "4096 4096" "1024 8192"; do
    limited 40 /tmp/$2 --m 1,2,3,4,6,8,12,16 --n ${nk% *} --k ${nk#* } --iters 30 --mode weight-only \
      --weight-order $3 --compare-kernel streaming --compare-weight-order $3 >> logs/small_$1.log 2>&1
  done
  stamp "small $1 rc=$?"
}
small mrows_r1 bench prepacked
small box8_r1 bench_box8 prepacked
small box8_r2 bench_box8 prepacked
small mrows_r2 bench prepacked
small natural bench natural
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/tests_wo.log | head -20
rows() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $NF}' "$1"; }
echo "== small: M N K | M-row box r1 us, streaming | 8-row box r1 | 8-row r2 | M-row r2 | natural us, streaming (checks last)"
paste <(rows logs/small_mrows_r1.log | cut -d' ' -f1-5) <(rows logs/small_box8_r1.log | cut -d' ' -f4,5) \
      <(rows logs/small_box8_r2.log | cut -d' ' -f4,5) <(rows logs/small_mrows_r2.log | cut -d' ' -f4,5) \
      <(rows logs/small_natural.log | cut -d' ' -f4-)
cat logs/summary.txt
rm -rf logs/*.log
