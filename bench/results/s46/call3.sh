#!/bin/bash
# Session 46, device call 3 (after call2.sh): the candidates' Python suite from a cp312 wheel of
# the branch, memcheck of the new tiles' and the stale-rows tests, racecheck of the 192-row
# tile's; then, with the time left, ncu of the streaming kernel at MXFP8 128 / 256 x 8192^2
# (issue #3: where the 128-row tile's time goes) and the row-blocks spike at K = 16384.
# Carry [".device/s46/cand", ".device/s46/wheel", ".device/s46/spike"]. Logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-570}
: > $L/summary.txt
B=/tmp/bench_cand T=/tmp/gpu_tests_cand
xz -dc .device/s46/cand/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s46/cand/mxgemm_gpu_tests.xz > $T && chmod +x $T
xz -dc .device/s46/spike/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s46/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
limited 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuStreamGemm.WholeTilesOf192*:GpuStreamGemm.StaleRows*:GpuStreamGemm.WideTilesAndLongK*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
limited 120 compute-sanitizer --tool racecheck --error-exitcode 3 $T \
  --gtest_filter='GpuStreamGemm.WholeTilesOf192*' > $L/racecheck.log 2>&1
stamp "racecheck rc=$?"
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats"
for m in 128 256; do
  limited 70 ncu --kernel-name regex:stream_gemm_sm90 --launch-skip 3 --launch-count 1 $SECT $B --m $m --n 8192 \
    --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_mx_${m}.log 2>&1; stamp "ncu $m rc=$?"
done
limited 50 /tmp/row_blocks 16384 > $L/row_blocks_16384.log 2>&1; stamp "row_blocks 16384 rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== pytest"; tail -3 logs/pytest.log
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -4
echo "== racecheck"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/racecheck.log | tail -4
echo "== ncu (streaming kernel, one launch)"
for m in 128 256; do
  echo "-- MXFP8 $m x 8192^2"
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Cache Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc Active" logs/ncu_mx_${m}.log 2>/dev/null | head -16
done
echo "== row_blocks spike (K = 16384)"; grep "^|" logs/row_blocks_16384.log
cat logs/summary.txt
rm -rf logs
