#!/bin/bash
# The second call for the candidates build (after next.sh; prepared in session 44, not yet run):
# the Python suite from a wheel of the branch (86a82fb: the same library as a577ec6's binaries),
# memcheck of the new tiles' tests, then racecheck of the row blocks' tests (their clusters sum in
# distributed shared memory) and of the 192-row tile's, with what time is left.
# Carry [".device/s44/cand", ".device/s44/wheel"] (about 27 MB). Logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-570}
: > $L/summary.txt
T=/tmp/gpu_tests_cand
xz -dc .device/s44/cand/mxgemm_gpu_tests.xz > $T && chmod +x $T
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s44/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
limited 180 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuStreamGemm.RowBlocks*:GpuWeightOnly.RowBlocks*:GpuStreamGemm.WholeTilesOf192*:GpuStreamGemm.StaleRows*' > $L/memcheck2.log 2>&1
stamp "memcheck rc=$?"
limited 240 compute-sanitizer --tool racecheck --error-exitcode 3 $T \
  --gtest_filter='GpuStreamGemm.RowBlocks*:GpuWeightOnly.RowBlocks*:GpuStreamGemm.WholeTilesOf192*' > $L/racecheck.log 2>&1
stamp "racecheck rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== pytest"; tail -3 logs/pytest.log
echo "== racecheck"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/racecheck.log | tail -4
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck2.log | tail -4
cat logs/summary.txt
rm -rf logs
