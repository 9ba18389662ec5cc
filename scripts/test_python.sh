#!/usr/bin/env bash
# Build and install the Python package (pip install .: scikit-build-core and nanobind drive
# the CMake build) and run its tests. Without torch or a GPU (as in CI) the torch tests
# skip with their reason and the torch-free layer is what runs. scripts/test.sh calls this
# after ctest. PYTHON (default: python3) picks the interpreter.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
PY="${PYTHON:-python3}"

# Build and test requirements; pip only runs when one is missing (the GPU machine has
# them and no network: the build itself never downloads anything, --no-build-isolation).
if ! "$PY" -c "import nanobind, scikit_build_core, pytest, numpy, matplotlib" >/dev/null 2>&1; then
  echo "== installing Python build and test requirements"
  "$PY" -m pip install -q --disable-pip-version-check \
    "nanobind>=2" "scikit-build-core>=0.10" pytest numpy matplotlib || \
    echo "warning: pip could not install every requirement; tests that need a missing one skip"
fi
# mypy checks that type checkers read the package's stubs; its test skips without it. One
# quick try, so that a machine without network (the GPU machine) loses no time on retries.
if ! "$PY" -c "import mypy" >/dev/null 2>&1; then
  "$PY" -m pip install -q --disable-pip-version-check --retries 0 --timeout 10 mypy >/dev/null 2>&1 || \
    echo "note: mypy could not be installed; the mypy test skips"
fi

# The sm_100a path is left out of the package build: the C++ build already compiles it.
log="$REPO_ROOT/build-python/pip-install.log"
mkdir -p "$(dirname "$log")"
echo "== pip install . (log: $log)"
if ! "$PY" -m pip install -v --no-build-isolation --disable-pip-version-check \
      --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS" \
      --config-settings=cmake.define.MXGEMM_SM100=OFF \
      "$REPO_ROOT" >"$log" 2>&1; then
  tail -n 60 "$log"
  echo "error: pip install . failed (full log: $log)" >&2
  exit 1
fi

# From the tests folder, so that `import mxgemm` finds the installed package.
cd "$REPO_ROOT/tests/python"
"$PY" -m pytest -q -rs .
