#!/usr/bin/env bash
# Build everything and run every test (what CI runs). Tests that need a GPU skip cleanly
# on a machine without one. BUILD_DIR (default: build) picks the build folder.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
ensure_cutlass
configure
cmake --build "$BUILD_DIR" -j"$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure
