#!/bin/bash
# Session 64, call 2: the 192- and 256-row tiles' TMA store with a staging buffer a round
# (stream_epilogue.cuh store_staged_tma, kBuffers = StreamGemmConfig::kStagedTmaBuffers: 6 of 6
# rounds at 192 rows, 7 of 8 at 256) against main's two buffers, where every round waited for
# TMA's read of the previous one. Carry [".device/s62/mxgemm_bench_slot.xz",
# ".device/s64/mxgemm_bench.xz", ".device/s64/mxgemm_gpu_tests.xz", ".device/s64/wheel"]. Built here (build-dev,
# nvcc 13, sm_90a): `cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests`, `xz -T2 -c`
# into .device/s64/ (mxgemm_bench.xz, mxgemm_gpu_tests.xz); main's device code is
# .device/s62/mxgemm_bench_slot.xz (b5e7977, which main 3ccdfe5's kernels are).
# (T) the new build's GPU tests of the staged store and the wide tiles, then (A) main / new
# alternated, two rounds (a third last, if time is left), both modes, M = 2048 / 4096 x N = 8192 x K = 4096 /
# 8192, then (G) the new build's whole GPU suite and (P) the Python suite from the new build's
# cp312 wheel (.device/s64/wheel: PYENV_VERSION=3.12.1 python3.12 -m pip wheel --no-build-isolation
# --no-deps -w .device/s64/wheel --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .), with what time is left.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s62/mxgemm_bench_slot.xz > /tmp/main_bench && chmod +x /tmp/main_bench
xz -dc .device/s64/mxgemm_bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
xz -dc .device/s64/mxgemm_gpu_tests.xz > /tmp/new_tests && chmod +x /tmp/new_tests
limited 90 /tmp/new_tests --gtest_filter='*Staged*:*Wide*:*Promoted*:*LongK*:*Tail*' > $L/tests_subset.log 2>&1
stamp "tests subset rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_subset.log | tr '\n' ' ')"
ab_round() {
  local r=$1 mode v
  for mode in weight-only mxfp8; do
    for v in main new; do
      limited 40 /tmp/${v}_bench --m 2048,4096 --n 8192 --k 4096,8192 --iters 20 --mode $mode > $L/${mode}_${v}_r$r.log 2>&1
      stamp "$mode $v r$r rc=$?"
    done
  done
}
ab_round 1; ab_round 2
limited $((BUDGET - SECONDS - 60)) /tmp/new_tests > $L/tests_all.log 2>&1
stamp "whole GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_all.log | tr '\n' ' ')"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s64/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 60 python3 -m pytest -q -rs -x . > $L/pytest.log 2>&1)
stamp "pytest rc=$? $(tail -1 $L/pytest.log)"
[ $((BUDGET - SECONDS)) -gt 120 ] && ab_round 3
cd $OUT
for mode in weight-only mxfp8; do
  echo "== $mode: M N K | main r1 r2 r3 | new r1 r2 r3 (us) | cuBLAS bf16 (main r1) | new r1 check"
  for f in main new; do [ -f logs/${mode}_${f}_r3.log ] || : > logs/${mode}_${f}_r3.log; done
  rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1"; }
  paste <(rows logs/${mode}_main_r1.log shape) \
        <(rows logs/${mode}_main_r1.log 5) <(rows logs/${mode}_main_r2.log 5) <(rows logs/${mode}_main_r3.log 5) \
        <(rows logs/${mode}_new_r1.log 5) <(rows logs/${mode}_new_r2.log 5) <(rows logs/${mode}_new_r3.log 5) \
        <(rows logs/${mode}_main_r1.log 8) <(rows logs/${mode}_new_r1.log NF)
done
grep -E "^\[  FAILED  \] [A-Z]" logs/tests_*.log | head
cat logs/summary.txt
