#!/usr/bin/env bash
# On the GPU machine: pip install . (no network: --no-build-isolation) and pytest tests/python.
# Usage: bash bench/device/python_tests.sh OUTDIR
set -uo pipefail
out="${1:?output folder}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-16}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/python_env.txt"
python3 -c 'import torch, sys; print(sys.version.split()[0], torch.__version__, torch.cuda.get_device_name())' | tee -a "$out/python_env.txt"
bash scripts/test_python.sh 2>&1 | tee "$out/pytest.log"
rc=${PIPESTATUS[0]}
cp build-python/pip-install.log "$out/" 2>/dev/null
echo "python tests exit status: $rc"
exit "$rc"
