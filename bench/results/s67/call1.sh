#!/bin/bash
# Session 67, call 1. Call 0 (s66's next.sh) skipped GpuStreamGemm.ThinLastWaveInStreamKMatchesReference:
# its shape (9400 x 1000 x 8176) never had a thin last wave. The test now runs 10200 x 1900 x 8176
# (4 whole waves + 72 tiles in stream-K on 132 SMs; StreamSchedule.ThinLastWaveOfTheGpuTestsShape).
# Built here (build-dev, nvcc 13, sm_90a, main 747b0e5's library + the fixed test):
# `cmake --build build-dev -j2 --target mxgemm_gpu_tests`, `xz -T2 -c` into .device/s67/gpu_tests.xz.
# Carry [".device/s67/gpu_tests.xz", ".device/s66/exp_bench.xz", ".device/s66/exp_bench_trace.xz"].
# (T) the thin-last-wave test, (G) the whole GPU suite, (S) memcheck on the thin-last-wave test,
# (W) is K = 6144..12288 the right window? s66's spike binary (main's kernels + MXGEMM_EXP_TAIL_SK)
# auto against MXGEMM_EXP_TAIL_SK=0 (every partial last wave in stream-K) at K = 6144 / 12288 /
# 16384, weight-only, then (X) s66's call3.sh (the trace of auto against the stream-K last wave)
# with what time is left.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-330}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s67/gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
xz -dc .device/s66/exp_bench.xz > /tmp/exp_bench && chmod +x /tmp/exp_bench
limited 60 /tmp/tests --gtest_filter='*ThinLastWave*' > $L/tests_thin.log 2>&1
stamp "thin-last-wave test rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_thin.log | tr '\n' ' ')"
limited 200 /tmp/tests > $L/tests_all.log 2>&1
stamp "whole GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_all.log | tr '\n' ' ')"
limited 90 compute-sanitizer --tool memcheck /tmp/tests --gtest_filter='*ThinLastWave*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED|SKIPPED)  \]' $L/memcheck.log | tr '\n' ' ')"
for v in auto sk; do
  if [ $v = auto ]; then limited 60 /tmp/exp_bench --m 2048,4096,8192 --n 8192,28672 --k 6144,12288,16384 --iters 20 --mode weight-only > $L/kwin_${v}.log 2>&1
  else MXGEMM_EXP_TAIL_SK=0 limited 60 /tmp/exp_bench --m 2048,4096,8192 --n 8192,28672 --k 6144,12288,16384 --iters 20 --mode weight-only > $L/kwin_${v}.log 2>&1; fi
  stamp "K window $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1" 2>/dev/null; }
echo "== K window, weight-only: M N K | auto  stream-K last wave (us) | cuBLAS bf16 | checks"
paste <(rows logs/kwin_auto.log shape) <(rows logs/kwin_auto.log 5) <(rows logs/kwin_sk.log 5) <(rows logs/kwin_auto.log 8) <(rows logs/kwin_auto.log NF) <(rows logs/kwin_sk.log NF)
grep -h "ThinLastWave\|margin" logs/tests_thin.log | head -6
grep -E "FAILED" logs/tests_all.log | head -10
cat logs/summary.txt
rm -rf logs
cd - > /dev/null
OUT=$OUT/trace BUDGET=$((480 - SECONDS)) bash bench/results/s66/call3.sh
