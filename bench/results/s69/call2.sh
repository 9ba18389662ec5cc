#!/bin/bash
# Session 69, call 2 (for an H100, when no H200 comes): the sanitizer tools that have not run on
# main's stream-K paths since sessions 66-67 landed them (session 67 ran memcheck on the
# thin-last-wave test only): racecheck and synccheck on the thin-last-wave and early-fixup tests,
# memcheck on the early-fixup one. Main's build (.device/s69/gpu_tests.xz). BUDGET (default 300).
# Carry [".device/s69/gpu_tests.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s69/gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
F='GpuStreamGemm.ThinLastWaveInStreamKMatchesReference:GpuStreamGemm.EarlyFixupGivesThePlainPathsBits'
for tool in racecheck synccheck memcheck; do
  f=$F; [ $tool = memcheck ] && f=GpuStreamGemm.EarlyFixupGivesThePlainPathsBits
  limited 120 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/tests --gtest_filter="$f" > $L/$tool.log 2>&1
  stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED|SKIPPED)  \]' $L/$tool.log | tr '\n' ' ')"
done
cd $OUT && tar czf logs.tgz logs
cat logs/summary.txt
rm -rf logs
