#!/bin/bash
# Session 53, call 1, on whatever GPU comes: main 7bf803e's library (one per-device cache, never
# run on a GPU before this call). The GPU suite; memcheck of the device-answer tests; the Python
# suite from main's cp312 wheel (not run on a GPU since session 42). On an H200 also every suite
# in both modes with one spin for every method (the README's H200 columns predate session 51's
# bench). Built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -T2 -c build-dev/apps/mxgemm_bench > .device/s53/mxgemm_bench.xz   (and the tests)
#   python3.12 -m pip wheel --no-build-isolation --no-deps -w .device/s53/wheel \
#     --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a \
#     --config-settings=cmake.define.MXGEMM_SM100=OFF .
# Carry [".device/s53"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-570}
: > $L/summary.txt
B=/tmp/bench; T=/tmp/tests
xz -dc .device/s53/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s53/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 200 $T > $L/tests.log 2>&1; stamp "gpu tests rc=$?"
limited 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='GpuDeviceTraits.*:GpuHostCost.*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s53/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
if grep -q H200 $L/smi.log; then
  limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
  limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|host side:" logs/tests.log | tail -8
grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
tail -4 logs/pytest.log
for f in mid_mx mid_wo large_wo large_mx decode_mx decode_wo; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
