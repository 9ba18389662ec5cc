#!/usr/bin/env bash
# Build mxgemm_cli and run it: with no arguments, a 512x512x512 E4M3 GEMM with the
# defaults (see `bash scripts/run.sh --help`); arguments are passed through.
# BUILD_DIR (default: build) picks the build folder.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
configure >/dev/null
cmake --build "$BUILD_DIR" -j"$JOBS" --target mxgemm_cli
exec "$BUILD_DIR/apps/mxgemm_cli" "$@"
