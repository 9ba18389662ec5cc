#!/bin/bash
# Session 39 b3 (prepared, not yet run): w3 under compute-sanitizer (memcheck; synccheck on the
# split's tests), its tests of the rows past M and the 33..64-row split. Binaries as batch1.sh
# says; carry .device/s39.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/common.sh"  # limited, table
xz -dc .device/s39/w3/mxgemm_gpu_tests.xz > /tmp/gpu_tests_w3 && chmod +x /tmp/gpu_tests_w3
F='*Stale*:*TwoWarpgroupSplitIsTaken*'
limited 360 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_w3 --gtest_filter="$F" > $L/memcheck.log 2>&1
echo "memcheck rc=$?" >> $L/summary.txt
limited 180 compute-sanitizer --tool synccheck --error-exitcode 3 /tmp/gpu_tests_w3 --gtest_filter='GpuStreamGemm.TwoWarpgroupSplitIsTaken*' > $L/synccheck.log 2>&1
echo "synccheck rc=$?" >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs
for f in memcheck synccheck; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED" logs/$f.log | tail -6; done
cat logs/summary.txt
rm -rf logs
