#!/bin/bash
# For the next session with a device (prepared in session 41, not yet run): main at its session-41
# head in one build (m41, built at 492e1d3: w3n's kernels, the stream turns, the current-device
# helper; kernels byte-identical to w3n's, cuobjdump 141/141 and 145/145): its full GPU suite,
# GpuWorkspace and the new tests under memcheck, the whole Python suite from a wheel of the same commit, and a K
# sweep of the forced 64-row one-tile split at N = 8192.
# Carry [".device/s41/m41", ".device/s41/wheel"] (about 20 MB).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"  # limited, table
xz -dc .device/s41/m41/mxgemm_gpu_tests.xz > /tmp/gpu_tests_m41 && chmod +x /tmp/gpu_tests_m41
limited 220 /tmp/gpu_tests_m41 > $L/gpu_suite_m41.log 2>&1; echo "gpu suite m41 rc=$?" >> $L/summary.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s41/wheel/*.whl > $L/pip.log 2>&1
echo "wheel install rc=$?" >> $L/summary.txt
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
echo "pytest rc=$?" >> $L/summary.txt
limited 160 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_m41 --gtest_filter='GpuWorkspace.*:*Stale*' > $L/memcheck.log 2>&1
echo "memcheck rc=$?" >> $L/summary.txt
# The 64-row one-tile-a-CTA split at N = 8192, forced, against the library's choice: a K sweep
# (b1 found it 3-5% faster at K = 8192, 3-8% slower at 28672).
xz -dc .device/s41/m41/mxgemm_bench.xz > /tmp/bench_m41 && chmod +x /tmp/bench_m41
E="--m 48,64 --n 8192 --k 4096,8192,12288,16384 --iters 30"
for r in 1 2; do
  limited 30 /tmp/bench_m41 $E > $L/E_auto_r$r.log 2>&1
  limited 30 /tmp/bench_m41 $E --split-k always > $L/E_always_r$r.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
table E auto always
for f in gpu_suite_m41 memcheck; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED" logs/$f.log | tail -8; done
echo "== pytest"; tail -3 logs/pytest.log
cat logs/summary.txt
rm -rf logs
