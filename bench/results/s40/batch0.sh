#!/bin/bash
# Session 40 b0 (prepared in session 40, which had no device; run it first in the next one that
# has). Main's own checks: the full GPU suite of m40 (main at 13b4a5c, tests at 4dd701f: session 39's kernels byte
# for byte, and the graph-safe scratch memory with its GpuWorkspace tests, never run on a GPU),
# those tests under compute-sanitizer memcheck, and the Python tests from the carried cp312 wheel
# (no build on the device). Carry [".device/s40/m40", ".device/s40/wheel"]; it sources s39's
# common.sh (tracked).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"  # limited, table
xz -dc .device/s40/m40/mxgemm_gpu_tests.xz > /tmp/gpu_tests_m40 && chmod +x /tmp/gpu_tests_m40
limited 200 /tmp/gpu_tests_m40 > $L/gpu_suite_m40.log 2>&1; echo "gpu suite m40 rc=$?" >> $L/summary.txt
limited 120 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_m40 --gtest_filter='GpuWorkspace.*' > $L/memcheck_workspace.log 2>&1
echo "memcheck GpuWorkspace rc=$?" >> $L/summary.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s40/wheel/*.whl > $L/pip.log 2>&1
echo "wheel install rc=$?" >> $L/summary.txt
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 200 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
echo "pytest rc=$?" >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs
for f in gpu_suite_m40 memcheck_workspace; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/$f.log | tail -8; done
echo "== pytest"; tail -4 logs/pytest.log
cat logs/summary.txt
rm -rf logs
