#!/usr/bin/env bash
# session 13 batch 10: the committed code (1d0d355): memcheck of the streaming kernel's tests
# (the permuted pre-pass), racecheck of the split/determinism tests, the large and decode
# suites (MXFP8).
cd .device
for f in final/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 compute-sanitizer --tool memcheck ./final/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.NanScales*:GpuGemm.ScalesOutside*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 120 compute-sanitizer --tool racecheck ./final/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
run() { local name=$1; shift; timeout 240 ./final/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; tail -6 $OUT/$name.log | head -2; }
run large_mx --suite large --iters 20
run decode_mx --suite decode --iters 30
