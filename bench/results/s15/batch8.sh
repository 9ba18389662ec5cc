#!/usr/bin/env bash
# session 15 batch 8: at 1b96b01: the Python package on the H200 (built there from the
# working tree), memcheck of the streaming and weight-only tests, and a second run of the
# weight-only large suite (its shapes move by several % from run to run).
bash bench/device/python_tests.sh $OUT > /dev/null 2>&1; echo "python rc=$?"; grep -E "passed|failed" $OUT/pytest.log | tail -2
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 150 ./new/mxgemm_bench --suite large --mode weight-only --iters 20 > $OUT/large_wo_2.log 2>&1; echo "large_wo rc=$?"; grep -E "vs cuBLAS bf16 .*over" $OUT/large_wo_2.log
awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/large_wo_2.log; echo
