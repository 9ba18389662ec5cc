#!/bin/bash
# Session 73, call 1 (any H100 or H200; the GPU's name is in logs/smi.log).
# Binaries (sm_90a), carry [".device/next"]: bench.xz and gpu_tests.xz built from this
# commit: the skinny kernel's prepacked values form with its activation in the stage, ldmatrix'd),
# bench_old.xz from 7071da1 (four 4-byte activation loads a block).
#  1. GPU tests: the weight-only suite and the prepack (also 7071da1's host fix, not yet run).
#  2. Prepacked weights at 1..16 rows on the 16 MB and 8 MB weights (where the skinny kernel runs
#     up to 8 rows), old and new build in alternated order, each against the streaming kernel
#     on the same prepacked weight (--compare-kernel streaming --compare-weight-order prepacked),
#     and the natural order (new build) against streaming too.
#  3. The decode weight-only suite, prepacked (new build) and natural.
#  4. The whole GPU suite.
# BUDGET (default 560) caps the whole call.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
unpack bench bench_old gpu_tests
limited 150 /tmp/gpu_tests --gtest_filter='GpuWeightOnly.*:GpuPrepack.*' > $L/tests_wo.log 2>&1
stamp "tests GpuWeightOnly+GpuPrepack rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_wo.log | tr '\n' ' ')"
cd $OUT
small() {  # small NAME BENCH ORDER: 1..16 rows on 4096^2 and 1024 x 8192
  local nk
  for nk in "4096 4096" "1024 8192"; do
    limited 40 /tmp/$2 --m 1,2,3,4,6,8,12,16 --n ${nk% *} --k ${nk#* } --iters 30 --mode weight-only \
      --weight-order $3 --compare-kernel streaming --compare-weight-order $3 >> logs/small_$1.log 2>&1
  done
  stamp "small $1 rc=$?"
}
small old_r1 bench_old prepacked
small new_r1 bench prepacked
small new_r2 bench prepacked
small old_r2 bench_old prepacked
small natural bench natural
for v in prepacked natural; do
  limited 80 /tmp/bench --suite decode --iters 20 --mode weight-only --weight-order $v > logs/decode_${v}.log 2>&1
  stamp "decode $v rc=$? $(grep -A1 'geometric mean' logs/decode_${v}.log | tail -1)"
done
limited 240 /tmp/gpu_tests > logs/full_suite.log 2>&1
stamp "full GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' logs/full_suite.log | tr '\n' ' ')"
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/tests_wo.log logs/full_suite.log | head -20
rows() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $NF}' "$1"; }
echo "== small: M N K | old r1 us, streaming | new r1 us, streaming | new r2 | old r2 | natural us, streaming (checks last)"
paste <(rows logs/small_old_r1.log | cut -d' ' -f1-5) <(rows logs/small_new_r1.log | cut -d' ' -f4,5) \
      <(rows logs/small_new_r2.log | cut -d' ' -f4,5) <(rows logs/small_old_r2.log | cut -d' ' -f4,5) \
      <(rows logs/small_natural.log | cut -d' ' -f4-)
for v in prepacked natural; do
  echo "== decode $v: M N K | mxgemm us | cuBLAS bf16 us | check"
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/decode_${v}.log
done
cat logs/summary.txt
rm -rf logs/*.log
