#!/bin/bash
# Session 68, call 1: main's build (555a60c = 66e9b92's kernels and schedules; built here, build-dev,
# nvcc 13, sm_90a, `xz -T2 -c` into .device/s67/gpu_tests2.xz and bench.xz): its stream-kernel and
# weight-only GPU tests, then
#  - on an H200: issue #7's large-M bar on its own GPU, the large suites, weight-only then MXFP8;
#  - on an H100: the K window's lower edge, K = 7168 (untimed so far), on the thin-last-wave shapes
#    (2048 / 4096 / 8192 x 28672, 8192 x 8192), s66's spike binary plain (no thin-wave stream-K)
#    against MXGEMM_EXP_TAIL_SK=0 (the thin last wave in stream-K), alternated, two rounds.
# Carry [".device/s67/gpu_tests2.xz", ".device/s67/bench.xz", ".device/s66/exp_bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-420}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s67/gpu_tests2.xz > /tmp/tests && chmod +x /tmp/tests
limited 200 /tmp/tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $L/tests_stream.log 2>&1
stamp "stream / weight-only GPU tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_stream.log | tr '\n' ' ')"
rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1" 2>/dev/null; }
if grep -q H200 $L/smi.log; then
  xz -dc .device/s67/bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
  for s in "large weight-only" "large mxfp8"; do set -- $s
    limited 80 /tmp/new_bench --suite $1 --iters 20 --mode $2 --csv $L/$1_$2.csv > $L/$1_$2.log 2>&1; stamp "$1 $2 rc=$?"
  done
  cd $OUT && tar czf logs.tgz logs
  for f in large_weight-only large_mxfp8; do
    grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
    echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
    awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/$f.log
  done
else
  xz -dc .device/s66/exp_bench.xz > /tmp/exp_bench && chmod +x /tmp/exp_bench
  one() {  # one MODE ROUND VARIANT
    ( [ $3 = sk ] && export MXGEMM_EXP_TAIL_SK=0
      limited 40 /tmp/exp_bench --m 2048,4096,8192 --n 28672 --k 7168 --iters 20 --mode $1
      limited 20 /tmp/exp_bench --m 8192 --n 8192 --k 7168 --iters 20 --mode $1 ) > $L/$1_$3_r$2.log 2>&1
    stamp "$1 $3 r$2 rc=$?"
  }
  for r in 1 2; do one weight-only $r plain; one weight-only $r sk; done
  for r in 1 2; do one mxfp8 $r plain; one mxfp8 $r sk; done
  cd $OUT && tar czf logs.tgz logs
  for m in weight-only mxfp8; do
    echo "== $m K=7168: M N K | plain r1, sk r1, plain r2, sk r2 (us) | cuBLAS bf16 | sk check"
    paste <(rows logs/${m}_plain_r1.log shape) <(rows logs/${m}_plain_r1.log 5) <(rows logs/${m}_sk_r1.log 5) \
      <(rows logs/${m}_plain_r2.log 5) <(rows logs/${m}_sk_r2.log 5) <(rows logs/${m}_plain_r1.log 8) <(rows logs/${m}_sk_r1.log NF)
  done
fi
cat logs/summary.txt
rm -rf logs
