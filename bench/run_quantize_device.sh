#!/usr/bin/env bash
# One device run for the quantize kernels (issue 5): GPU tests, a compute-sanitizer pass on
# small shapes, the bandwidth benchmark and (unless SKIP_TORCH=1) the eager-PyTorch peer;
# optionally (NCU=1) an Nsight Compute pass over the three kernels. A summary table last.
# Usage (from the repository root, build folder already built for sm_90a):
#   bash bench/run_quantize_device.sh [BUILD_DIR=build-quant-gpu] [OUT_DIR=$OUT or ./out]
set -uo pipefail
B=${1:-build-quant-gpu}
O=${2:-${OUT:-out}}
mkdir -p "$O"
T="$B/tests/mxgemm_gpu_tests"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$O/gpu.txt"

s=$(date +%s)
"$T" --gtest_brief=1 --gtest_filter='*Quantize*' >"$O/gpu_tests.log" 2>&1
tests_rc=$?
tests_s=$(( $(date +%s) - s ))

s=$(date +%s)
small='AllCombinations/QuantizeSweep.*/1x32_*:AllCombinations/QuantizeSweep.*/7x16_*:AllCombinations/QuantizeSweep.*/129x48_*:QuantizeGpu.RejectsBadArgumentsWithoutWriting:QuantizeGpu.StridedAndMisalignedOperands'
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 99 "$T" --gtest_brief=1 \
  --gtest_filter="$small" >"$O/memcheck.log" 2>&1
mc_rc=$?
mc_s=$(( $(date +%s) - s ))

"$B/apps/bench_quantize" --iters 100 --warmup 20 >"$O/bench.log" 2>&1
bench_rc=$?
# OLD_BENCH=path: also time another build of bench_quantize in the same run (A/B).
if [ -n "${OLD_BENCH:-}" ]; then "$OLD_BENCH" --iters 100 --warmup 20 >"$O/bench_old.log" 2>&1; fi
torch_rc=skipped
if [ "${SKIP_TORCH:-0}" != 1 ]; then
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/quantize_torch_peer.py --iters 100 >"$O/torch_peer.log" 2>&1
  torch_rc=$?
fi
if [ "${NCU:-0}" = 1 ]; then
  NCU_BIN=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  # Launches 251..255 of the three kernels: rowwise floor/rceil, columnwise floor/rceil, dequantize.
  timeout 150 "$NCU_BIN" --clock-control none -k 'regex:quantize_(rowwise|columnwise)_kernel|dequantize_kernel' \
    --launch-skip 250 --launch-count 5 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section WarpStateStats --section LaunchStats \
    "$B/apps/bench_quantize" --iters 1 --warmup 0 >"$O/ncu.log" 2>&1
  echo "ncu rc=$?"
fi

echo "================ failures (if any) ================"
grep -E "FAILED|Failure|error" "$O/gpu_tests.log" | head -40
grep -E "ERROR SUMMARY|Invalid|FAILED" "$O/memcheck.log" | head -10
if [ -f "$O/ncu.log" ]; then
  echo "================ ncu ================"
  grep -E "^  [a-z_].*kernel|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Duration|Registers Per|Stall|One or More Eligible|Issued Warp" "$O/ncu.log" | sed -E 's/ +/ /g' | cut -c1-150 | head -60
fi
echo "================ summary ================"
printf "gpu tests   rc=%s  %ss  %s\n" "$tests_rc" "$tests_s" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$O/gpu_tests.log" | tr '\n' ' ')"
printf "memcheck    rc=%s  %ss  %s %s\n" "$mc_rc" "$mc_s" "$(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)" "$(grep -E '^\[  PASSED' "$O/memcheck.log" | tr '\n' ' ')"
echo "bench rc=$bench_rc  torch rc=$torch_rc"
[ -f "$O/bench_old.log" ] && { echo "--- previous build ($OLD_BENCH)"; tail -7 "$O/bench_old.log"; echo "--- this build"; }
cat "$O/bench.log"
[ -f "$O/torch_peer.log" ] && cat "$O/torch_peer.log"
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader
