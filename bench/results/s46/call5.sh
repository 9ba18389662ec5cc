#!/bin/bash
# Session 46, device call 5 (after call4.sh, whose P ran one round): the candidates build without
# the row blocks (s46-candidates, f6b1c88: the padded workspace and the 192-row width), before
# landing them: the padded workspace's second round, memcheck of the stale-rows test (the padded
# rows and 192-row tiles after NaN rows) and of the 192-row halves, the Python suite from the
# branch's cp312 wheel, then racecheck of the stale-rows test with what time is left.
# Carry [".device/s46/cand", ".device/s46/wheel"]. Logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-300}
: > $L/summary.txt
B=/tmp/bench_cand T=/tmp/gpu_tests_cand
xz -dc .device/s46/cand/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s46/cand/mxgemm_gpu_tests.xz > $T && chmod +x $T
P="--m 300,600,1000,2100 --n 8192 --k 8192 --iters 20"
for v in never auto; do limited 30 $B $P --padded-ws $v > $L/P_${v}_r2.log 2>&1; stamp "P $v r2 rc=$?"; done
for v in never auto; do cp $L/P_${v}_r2.log $L/P_${v}_r1.log; done
limited 80 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuStreamGemm.StaleRows*:GpuWeightOnly.StaleRows*:GpuStreamGemm.StagedStoreCoversTailsAndPitches' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s46/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 120 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
limited 60 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='GpuStreamGemm.StaleRows*' > $L/racecheck.log 2>&1
stamp "racecheck rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "(round 2 only, repeated)"; table P never auto
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -4
echo "== pytest"; tail -3 logs/pytest.log
echo "== racecheck"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/racecheck.log | tail -4
cat logs/summary.txt
rm -rf logs
