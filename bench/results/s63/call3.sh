#!/bin/bash
# Session 63, call 3: the GPU suite with the library's host code (and the tests') built with
# AddressSanitizer + UndefinedBehaviorSanitizer (ctest's gpu_tests_under_asan_and_ubsan), on a
# GPU for the first time. Built here (build-dev, nvcc 13, sm_90a; main 73ff91e's device code plus
# this session's test changes): `cmake --build build-dev -j2 --target mxgemm_gpu_tests_sanitized`,
# `xz -T2 -c` into .device/s63/. Carry [".device/s63"] (or set SAN to another build's .xz). Eight shards at once (one GPU), each with
# ctest's environment then (plus LSAN_OPTIONS=suppressions=bench/results/s63/cuda_asan.supp, the CUDA
# driver's and runtime's libraries; call 5 ran without, as landed). Set SUPP= to leave it out.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc ${SAN:-.device/s63/mxgemm_gpu_tests_sanitized.xz} > /tmp/san && chmod +x /tmp/san
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
export UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=protect_shadow_gap=0
SUPP=${SUPP-bench/results/s63/cuda_asan.supp}
[ -n "$SUPP" ] && export LSAN_OPTIONS=suppressions=$PWD/$SUPP
SHARDS=${SHARDS:-8}
for i in $(seq 0 $((SHARDS - 1))); do
  GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$i timeout ${LIMIT:-500} /tmp/san > $L/shard$i.log 2>&1 &
done
rcs=""
for j in $(jobs -p); do wait $j; rcs="$rcs $?"; done
echo "shard rcs:$rcs (t=${SECONDS}s)" | tee $L/summary.txt
for i in $(seq 0 $((SHARDS - 1))); do
  echo "-- shard $i: $(grep -E '^\[  PASSED  \]|^\[  FAILED  \] [0-9]+ test' $L/shard$i.log | tr '\n' ' ')"
  grep -E "ERROR: AddressSanitizer|runtime error|LeakSanitizer|SUMMARY|^\[  FAILED  \] [A-Z]" $L/shard$i.log | head -5
done | tee -a $L/summary.txt
grep -h "host side: median" $L/shard*.log | tee -a $L/summary.txt
cd $OUT && tar czf logs.tgz logs && rm -rf logs
