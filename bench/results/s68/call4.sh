#!/bin/bash
# Session 68, call 4: on an H200, call 2 (issue #7's and #3's suites on main's build). Elsewhere
# the Python suite from main's cp312 wheel (session 64 ran it last; main since then changed the
# host's schedule choice only): built here with `PYENV_VERSION=3.12.1 python3.12 -m pip wheel
# --no-build-isolation --no-deps -w .device/s68/wheel
# --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .` at 555a60c's library.
# Carry [".device/s67/gpu_tests2.xz", ".device/s67/bench.xz", ".device/s68/wheel"].
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $OUT/smi.log
grep -q H200 $OUT/smi.log && exec bash bench/results/s68/call2.sh
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-200}
: > $L/summary.txt
cat $OUT/smi.log
python3 --version >> $L/summary.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s68/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 170 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$? $(tail -1 $L/pytest.log)"
grep -E "^(SKIPPED|FAILED|ERROR)" $L/pytest.log | head -20 >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs
cat logs/summary.txt
rm -rf logs
