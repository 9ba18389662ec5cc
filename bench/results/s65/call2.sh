#!/bin/bash
# Session 65, call 2 (after call 1 on the same H100): a second round of the weight-only large
# suite (issue #7's bar; call 1's first read 1.000x), then the GPU suite with the host code under
# ASan + UBSan (bench/results/s63/call3.sh, eight shards at once) on this session's build of
# mxgemm_gpu_tests_sanitized (main e9f848a: `cmake --build build-dev -j2 --target
# mxgemm_gpu_tests_sanitized`, `xz -T2 -c` into .device/s65/) in the time left.
# Carry [".device/s64/mxgemm_bench.xz", ".device/s65/mxgemm_gpu_tests_sanitized.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-480}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s64/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
limited 70 /tmp/mxgemm_bench --suite large --iters 20 --mode weight-only --csv $L/large_weight-only_r2.csv > $L/large_weight-only_r2.log 2>&1
stamp "large weight-only r2 rc=$?"
LEFT=$((BUDGET - SECONDS - 20))
if [ $LEFT -gt 60 ]; then
  OUT=$OUT/asan SAN=.device/s65/mxgemm_gpu_tests_sanitized.xz SUPP= LIMIT=$LEFT bash bench/results/s63/call3.sh > $L/asan.log 2>&1
  stamp "asan (limit ${LEFT}s) rc=$?"
  tar xzf $OUT/asan/logs.tgz -C $OUT/asan && cat $OUT/asan/logs/summary.txt >> $L/summary.txt && rm -rf $OUT/asan/logs
fi
cd $OUT && tar czf logs.tgz logs
echo "== large_weight-only r2"; grep -A2 "geometric mean" logs/large_weight-only_r2.log | head -3; grep -E "all checks passed|FAIL" logs/large_weight-only_r2.log | tail -1
cat logs/summary.txt
rm -rf logs
