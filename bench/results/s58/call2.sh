#!/bin/bash
# Session 58, call 2. Carry [".device/s58"]: mxgemm_bench / mxgemm_gpu_tests of the working tree
# (main 03b29e4 + the staggered first promotion, first_promotion_sub_stage; --promote
# auto|unstaggered|never), built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -T2 -c build-dev/apps/mxgemm_bench > .device/s58/mxgemm_bench.xz   (same for tests/mxgemm_gpu_tests)
# (1) Where #7 and the large suite lose most (K = 28672 at 2048 / 4096 rows: the 256-row tiles
#     promote three times a tile, and every CTA at once): --promote auto (staggered: the CTAs'
#     first promotions at 4 different sub-stages) against unstaggered (main's) and never (timing
#     only), same binary, alternated, three rounds, both modes. K = 8192 (no promotion) is the
#     control: all three must be level there.
# (2) The GPU suite.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_gpu_tests; do xz -dc .device/s58/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
B=/tmp/mxgemm_bench T=/tmp/mxgemm_gpu_tests
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $L/smi.log 2>&1
for r in 1 2 3; do
  for mode in weight-only mxfp8; do
    for v in auto unstaggered never; do
      limited 30 $B --m 2048,4096 --n 8192 --k 28672,8192 --iters 20 --mode $mode --promote $v > $L/R${mode}_${v}_r$r.log 2>&1
      stamp "$mode promote $v r$r rc=$?"
    done
  done
done
limited 220 $T > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -6
for r in 1 2 3; do
  echo "== round $r: M N K | auto unstaggered never (us) | cuBLAS bf16 (never's run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/R${mode}_auto_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/R${mode}_unstaggered_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/R${mode}_never_r$r.log)
  done
done
cat logs/summary.txt
rm -rf logs
