#!/bin/bash
# Session 48, device call 7: branch s48-tma-store after call6's failure (TMA wrote whole 16-byte
# pieces past N where a row of D ends inside one: now only where N % 8 == 0). Its staged-store
# tests and memcheck, then --tma-store never against auto in the same binary, alternated, two
# rounds, MXFP8 and weight-only. Carry [".device/s48c6"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-170}
: > $L/summary.txt
for b in mxgemm_bench_tma mxgemm_gpu_tests_tma; do
  xz -dc .device/s48c6/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
F='GpuStreamGemm.StagedStore*:GpuWeightOnly.StagedStore*:GpuStreamGemm.WholeTilesOf192*:GpuWeightOnly.TilesOf192*:GpuStreamFp16Form.*:GpuStreamGemm.EveryMFrom1To80'
limited 40 /tmp/mxgemm_gpu_tests_tma --gtest_filter="$F" > $L/tests.log 2>&1; stamp "tests rc=$?"
limited 20 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_tma \
  --gtest_filter='GpuStreamGemm.StagedStore*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
S="--m 256,2048,4096 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in never auto; do
      limited 15 /tmp/mxgemm_bench_tma $S --mode $mode --tma-store $v > $L/${mode}_${v}_r$r.log 2>&1; stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== tests"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
table weight-only never auto; table mxfp8 never auto
cat logs/summary.txt
rm -rf logs
