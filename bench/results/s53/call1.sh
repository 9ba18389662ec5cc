#!/bin/bash
# Session 53, call 1, on whatever GPU comes: main 7bf803e's library (one per-device cache, never
# run on a GPU before this call). The GPU suite; memcheck of the device-answer tests; the Python
# suite from main's cp312 wheel (not run on a GPU since session 42). Built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -T2 -c build-dev/apps/mxgemm_bench > .device/s53/mxgemm_bench.xz   (and the tests)
#   python3.12 -m pip wheel --no-build-isolation --no-deps -w .device/s53/wheel \
#     --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a \
#     --config-settings=cmake.define.MXGEMM_SM100=OFF .
# Carry [".device/s53"].
# Session 54 ran it on an H100 (../s54/call1), where its H200 part (every suite in both modes, from
# .device/s53/mxgemm_bench.xz) was skipped; that part now stands only in ../s54/call3.sh.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-570}
: > $L/summary.txt
T=/tmp/tests
xz -dc .device/s53/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 200 $T > $L/tests.log 2>&1; stamp "gpu tests rc=$?"
limited 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuDeviceTraits.*:GpuHostCost.*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s53/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|host side:" logs/tests.log | tail -8
grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
tail -4 logs/pytest.log
cat logs/summary.txt
rm -rf logs
