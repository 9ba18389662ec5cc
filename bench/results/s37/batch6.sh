#!/bin/bash
# Session 37 b6: nG = the final library commit (clusters of at least 3 CTAs for 33..64 rows).
# Its GPU suite; b5's shapes once (5120 back on the split reduction, 4608 in clusters of 3).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s37/nG/mxgemm_bench.xz > /tmp/bench_nG && chmod +x /tmp/bench_nG
xz -dc .device/s37/nG/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
timeout 200 /tmp/gpu_tests > $L/gpu_suite.log 2>&1; echo "gpu suite rc=$?" >> $L/summary.txt
timeout 40 /tmp/bench_nG --m 33,64 --n 4608,5120 --k 4096,6144 --iters 30 > $L/M_nG.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/gpu_suite.log | tail -8
cat logs/summary.txt
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $16, $NF}' logs/M_nG.log
grep -c "all checks passed" logs/*.log | tr '\n' ' '; echo
rm -rf logs
