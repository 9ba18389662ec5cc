#!/bin/bash
# Session 52, call 5, on whatever GPU comes. Always: the Python suite from main's cp312 wheel
# (built here: python3.12 -m pip wheel --no-build-isolation --no-deps -w .device/s52/wheel
# --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .), and memcheck of the device-answer tests.
# On an H200 also the questions the H100s cannot answer (issue #4 / #7's bars are the H200's),
# with session 51's mxgemm_bench_perm (main 447f9d0's library + ../s51/bf16_permuted.patch, whose
# GPU test passed in call 3): (P) weight-only 17..64 rows `--mx-values auto / bf16-permuted /
# bf16`; (W, X) ../s50/next.sh's (1): 48..128 rows auto against bf16; (Q) its (2): 17..32 rows
# weight-only auto / f16 against MXFP8 bf16 / auto. Alternated, two rounds.
# Carry [".device/s52", ".device/p"] (.device/p: the perm bench, its tests).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
xz -dc .device/s52/mxgemm_gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
limited 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/tests \
  --gtest_filter='GpuDeviceTraits.*:GpuHostCost.*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s52/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 150 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
if grep -q H200 $L/smi.log; then
  xz -dc .device/p/mxgemm_bench_perm.xz > /tmp/b && chmod +x /tmp/b
  B=/tmp/b
  for r in 1 2; do
    for v in auto bf16-permuted bf16; do
      limited 30 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
      stamp "P $v r$r rc=$?"
    done
    for v in auto bf16; do
      limited 30 $B --m 96,128 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/W_${v}_r$r.log 2>&1
      stamp "W $v r$r rc=$?"
      limited 30 $B --m 48,64,96,128 --n 28672 --k 8192 --iters 30 --mode weight-only --mx-values $v > $L/X_${v}_r$r.log 2>&1
      stamp "X $v r$r rc=$?"
    done
    limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only > $L/Q_woauto_r$r.log 2>&1; stamp "Q wo auto r$r rc=$?"
    limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values f16 > $L/Q_wof16_r$r.log 2>&1; stamp "Q wo f16 r$r rc=$?"
    limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 --mx-values bf16 > $L/Q_mxbf16_r$r.log 2>&1; stamp "Q mxfp8 bf16 r$r rc=$?"
    limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/Q_mxauto_r$r.log 2>&1; stamp "Q mxfp8 auto r$r rc=$?"
  done
fi
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
tail -4 logs/pytest.log
if [ -f logs/P_auto_r1.log ]; then
  grep -h "memory floor's bandwidth" logs/P_auto_r1.log
  table P auto bf16-permuted bf16; table W auto bf16; table X auto bf16
  table Q woauto wof16 mxbf16 mxauto
fi
cat logs/summary.txt
rm -rf logs
