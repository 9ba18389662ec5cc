#!/bin/bash
# Session 64, never run (session 64's call 1, which got no machine; its Python part ran in call 2):
# for the next H200. Carry [".device/s63/mxgemm_gpu_tests_sanitized.xz", ".device/s64/row_blocks.xz",
# ".device/s64/wheel"]. Built here (nvcc 13, sm_90a):
#  .device/s64/wheel/*.whl   a cp312 wheel: PYENV_VERSION=3.12.1 python3.12 -m pip wheel
#                            --no-build-isolation --no-deps -w .device/s64/wheel
#                            --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
#                            --config-settings=cmake.define.MXGEMM_SM100=OFF .
#  .device/s64/row_blocks.xz `cmake --build build-dev --target spike_row_blocks` (bench/spike/row_blocks.cu)
#  .device/s63/mxgemm_gpu_tests_sanitized.xz  session 63's (76a331e's tests, b5e7977's device code;
#                            rebuild it, `--target mxgemm_gpu_tests_sanitized`, for main's)
# (S) the row-blocks spike, two runs: session 57's lead for issue #3 at M = 128 (a 256 x 128 tile)
#     was refuted on H100s only (session 58); on the H200 the 128-row tile's stage was judged
#     bound by SM ingress, not DRAM.
# (P) the Python suite from the wheel (session 64 call 2: 222 passed on an H100).
# (A) the sanitized GPU suite (ASan + UBSan host code) as ctest runs it, eight shards at once:
#     session 63's call 5 cut three shards at 170 s.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s64/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
for r in 1 2; do limited 60 /tmp/row_blocks 8192 > $L/row_blocks_r$r.log 2>&1; stamp "row_blocks r$r rc=$?"; done
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s64/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 200 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
LEFT=$((BUDGET - SECONDS - 25))
if [ $LEFT -gt 60 ]; then
  OUT=$OUT/asan SUPP= LIMIT=$LEFT bash bench/results/s63/call3.sh > $L/asan.log 2>&1
  stamp "asan (limit ${LEFT}s) rc=$?"
  tar xzf $OUT/asan/logs.tgz -C $OUT/asan && cat $OUT/asan/logs/summary.txt >> $L/summary.txt
fi
echo "== row_blocks"; grep -h "^|" $L/row_blocks_r*.log
echo "== pytest"; tail -4 $L/pytest.log
cat $L/summary.txt
