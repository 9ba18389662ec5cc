#!/usr/bin/env bash
# Build everything and run every test (what CI runs): the C++ suites through ctest, then
# the Python package (scripts/test_python.sh). Tests that need a GPU (or torch) skip
# cleanly on a machine without one. BUILD_DIR (default: build) picks the build folder.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
ensure_cutlass
configure
cmake --build "$BUILD_DIR" -j"$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure
bash "$REPO_ROOT/scripts/test_python.sh"
