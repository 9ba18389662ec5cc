#!/bin/bash
# Session 49, call 5 (H200, warm, the tests binary of call 3): compute-sanitizer memcheck and
# racecheck of the staged-store test (TMA store, the new shapes), memcheck of the L2-prefetch tests.
# (Run as two commands; joined here.)
mkdir -p $OUT/logs; T=/tmp/gpu_tests; [ -x $T ] || (xz -dc .device/next/mxgemm_gpu_tests.xz > $T && chmod +x $T)
timeout 220 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_filter='GpuStreamGemm.StagedStoreCoversTailsAndPitches' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -5 $OUT/logs/memcheck.log
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $T --gtest_filter='GpuStreamGemm.StagedStoreCoversTailsAndPitches' > $OUT/logs/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -4 $OUT/logs/racecheck.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_filter='*L2PrefetchAhead*' > $OUT/logs/memcheck_l2.log 2>&1; echo "memcheck l2 rc=$?"; tail -3 $OUT/logs/memcheck_l2.log
