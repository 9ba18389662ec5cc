#!/bin/bash
# Session 48, device call 6 (the last of the session's device time): branch s48-tma-store, the
# staged store's rounds handed to TMA (store_staged_tma). Its staged-store and 192-row tests and a
# memcheck, then main (adb41da's bench: .device/s48c6/mxgemm_bench.xz) against the branch with
# --tma-store never and auto, MXFP8 and weight-only. Carry [".device/s48c6"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-230}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_tma mxgemm_gpu_tests_tma; do
  xz -dc .device/s48c6/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
F='GpuStreamGemm.StagedStore*:GpuWeightOnly.StagedStore*:GpuStreamGemm.WholeTilesOf192*:GpuWeightOnly.TilesOf192*:GpuStreamFp16Form.*:GpuStreamGemm.EveryMFrom1To80'
limited 60 /tmp/mxgemm_gpu_tests_tma --gtest_filter="$F" > $L/tests.log 2>&1; stamp "tests rc=$?"
limited 40 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_tma \
  --gtest_filter='GpuStreamGemm.StagedStore*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
S="--m 256,4096 --n 8192 --k 8192 --iters 20"
for mode in mxfp8 weight-only; do
  limited 25 /tmp/mxgemm_bench $S --mode $mode > $L/${mode}_head_r1.log 2>&1; stamp "$mode head rc=$?"
  limited 25 /tmp/mxgemm_bench_tma $S --mode $mode --tma-store never > $L/${mode}_never_r1.log 2>&1; stamp "$mode never rc=$?"
  limited 25 /tmp/mxgemm_bench_tma $S --mode $mode > $L/${mode}_auto_r1.log 2>&1; stamp "$mode auto rc=$?"
done
cd $OUT && tar czf logs.tgz logs
echo "== tests"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
for mode in mxfp8 weight-only; do for v in head never auto; do cp logs/${mode}_${v}_r1.log logs/${mode}_${v}_r2.log; done; table $mode head never auto; done
cat logs/summary.txt
rm -rf logs
