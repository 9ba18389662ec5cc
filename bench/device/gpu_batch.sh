#!/usr/bin/env bash
# One batch on the GPU machine, every step under a time limit so that a hang cannot eat the
# session: GPU tests, compute-sanitizer on the streaming and tiled kernels, the decode and
# mid benchmark suites, the weight-only benchmark, and the Python package tests (8 files
# under OUT_DIR, the most the device tool brings back). A summary table comes last.
# Usage: bash bench/device/gpu_batch.sh BIN_DIR OUT_DIR   (BIN_DIR holds mxgemm_gpu_tests
# and mxgemm_bench built for sm_90a; OUT_DIR receives the logs)
set -uo pipefail
bin="${1:?folder with mxgemm_gpu_tests and mxgemm_bench}"
out="${2:?output folder}"
declare -A rc
step() {  # step NAME SECONDS LOG COMMAND...
  local name=$1 limit=$2 log=$3; shift 3
  timeout "$limit" "$@" > "$out/$log" 2>&1
  rc[$name]=$?
  echo "== $name: exit ${rc[$name]} ($log)"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
step gpu_tests 180 gpu_tests.log "$bin/mxgemm_gpu_tests"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$out/gpu_tests.log" | tail -6
step memcheck 90 memcheck.log compute-sanitizer --tool memcheck "$bin/mxgemm_gpu_tests" \
  --gtest_filter='GpuStreamGemm.SplitTiles*:GpuGemm.ElementTypes*'
step racecheck 120 racecheck.log compute-sanitizer --tool racecheck "$bin/mxgemm_gpu_tests" \
  --gtest_filter='GpuStreamGemm.SplitTiles*:GpuGemm.NanScales*:GpuGemm.ElementTypes*'
step bench_decode 150 bench_decode.log "$bin/mxgemm_bench" --suite decode --iters 30 --csv "$out/decode.csv"
step bench_mid 90 bench_mid.log "$bin/mxgemm_bench" --m 128,256,1024,8192 --n 8192 --k 8192 --iters 20
step bench_weight_only 150 bench_weight_only.log "$bin/mxgemm_bench" --mode weight-only \
  --m 1,16,64,128,2048,8192 --n 8192,28672 --k 8192 --iters 20
step python 150 pytest.log bash bench/device/python_tests.sh /tmp
echo
echo "| step | exit | result |"
echo "|---|---|---|"
echo "| gpu tests | ${rc[gpu_tests]} | $(grep -E '^\[  PASSED  \]|^\[  FAILED  \] [0-9]+' "$out/gpu_tests.log" | tr '\n' ' ') |"
echo "| memcheck | ${rc[memcheck]} | $(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1) |"
echo "| racecheck | ${rc[racecheck]} | $(grep -E 'RACECHECK SUMMARY' "$out/racecheck.log" | tail -1) |"
echo "| bench decode | ${rc[bench_decode]} | $(grep -E 'all checks passed|FAIL' "$out/bench_decode.log" | tail -1) |"
echo "| bench mid | ${rc[bench_mid]} | $(grep -E 'all checks passed|FAIL' "$out/bench_mid.log" | tail -1) |"
echo "| bench weight-only | ${rc[bench_weight_only]} | $(grep -E 'all checks passed|FAIL' "$out/bench_weight_only.log" | tail -1) |"
echo "| python | ${rc[python]} | $(grep -E 'passed|failed' "$out/pytest.log" | tail -1) |"
