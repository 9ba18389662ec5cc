#!/bin/bash
# Session 67, call 3: the new K window (kLastWaveStreamKMinK 6144 -> 7168, host only) built here
# (build-dev, nvcc 13, sm_90a: `cmake --build build-dev -j2 --target mxgemm_gpu_tests mxgemm_bench` (apps/mxgemm_bench),
# `xz -T2 -c` into .device/s67/gpu_tests2.xz, bench.xz): its stream-kernel GPU tests, then, only on
# an H200, issue #7's large-M bar on its own GPU: the large suites, weight-only then MXFP8 (the
# large suite's schedules are those of 747b0e5's build; the H100's numbers are in call 0).
# Carry [".device/s67/gpu_tests2.xz", ".device/s67/bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-330}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s67/gpu_tests2.xz > /tmp/tests && chmod +x /tmp/tests
limited 200 /tmp/tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $L/tests_stream.log 2>&1
stamp "stream / weight-only GPU tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests_stream.log | tr '\n' ' ')"
grep -q H200 $L/smi.log || { cd $OUT && tar czf logs.tgz logs; cat logs/summary.txt; echo "not an H200: no suites"; rm -rf logs; exit 0; }
xz -dc .device/s67/bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
for s in "large weight-only" "large mxfp8"; do set -- $s
  limited 70 /tmp/new_bench --suite $1 --iters 20 --mode $2 --csv $L/$1_$2.csv > $L/$1_$2.log 2>&1; stamp "$1 $2 rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in large_weight-only large_mxfp8; do
  grep -q "geometric mean" logs/$f.log 2>/dev/null || continue
  echo "== $f"; grep -A1 "geometric mean" logs/$f.log | tail -1; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' logs/$f.log
done
cat logs/summary.txt
rm -rf logs
