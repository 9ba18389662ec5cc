#!/bin/bash
# Session 71, call 5 (any H100 or H200): call4.sh (GPU tests of the weight-only, skinny and
# prepack code; on an H200 the large suite natural against prepacked; decode and mid suites),
# then the Python suite from this session's cp312 wheel (built here with `PYENV_VERSION=3.12.1
# python3.12 -m pip wheel --no-build-isolation --no-deps -w .device/s71/wheel
# --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .` at the commit that adds this script).
# Carry [".device/next", ".device/s71/wheel"]. BUDGET4 (default 380) for call4, 170 for pytest.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader
BUDGET=${BUDGET4:-380} bash bench/results/s71/call4.sh
L=$OUT/py; mkdir -p $L
python3 --version > $L/summary.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s71/wheel/*.whl > $L/pip.log 2>&1
echo "wheel install rc=$?" >> $L/summary.txt
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && timeout 170 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
echo "pytest rc=$? $(tail -1 $L/pytest.log)" >> $L/summary.txt
grep -E "^(SKIPPED|FAILED|ERROR)" $L/pytest.log | head -20 >> $L/summary.txt
grep -B5 -A30 "^_____" $L/pytest.log | head -80 > $L/failures.txt
cat $L/summary.txt
