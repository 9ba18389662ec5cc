#!/bin/bash
# Session 59, call 5: on an H200, call2.sh's suites (the H200 columns; weight-only decode first);
# on any other GPU, main as it stands (library unchanged since 14dcc08): (T) the GPU suite;
# (W) the Python suite from main's cp312 wheel (built here: PYENV_VERSION=3.12.1 python3.12 -m pip
# wheel --no-build-isolation --no-deps -w .device/s59w/wheel
# --config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=90a
# --config-settings=cmake.define.MXGEMM_SM100=OFF .); (M) compute-sanitizer memcheck of the 256-row
# tiles' long-K test, whose promotions session 58 staggered. Carry [".device/s59w", ".device/s58"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-200}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
if grep -q H200 $L/smi.log; then
  xz -dc .device/s58/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
  B=/tmp/mxgemm_bench
  limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_weight-only.csv > $L/decode_weight-only.log 2>&1
  stamp "decode weight-only rc=$?"
  for mode in weight-only mxfp8; do
    limited 60 $B --suite large --iters 20 --mode $mode --csv $L/large_$mode.csv > $L/large_$mode.log 2>&1
    stamp "large $mode rc=$?"
    limited 15 $B --suite mid --iters 20 --mode $mode --csv $L/mid_$mode.csv > $L/mid_$mode.log 2>&1
    stamp "mid $mode rc=$?"
  done
  limited 80 $B --suite decode --iters 30 --mode mxfp8 --csv $L/decode_mxfp8.csv > $L/decode_mxfp8.log 2>&1
  stamp "decode mxfp8 rc=$?"
  cd $OUT && tar czf logs.tgz logs
  for f in decode_weight-only large_weight-only large_mxfp8 mid_weight-only mid_mxfp8 decode_mxfp8; do
    [ -f logs/$f.log ] || continue
    echo "== $f"; grep -A2 "geometric mean" logs/$f.log | head -3; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
  done
  cat logs/summary.txt
  rm -rf logs
  exit 0
fi
T=/tmp/mxgemm_gpu_tests
xz -dc .device/s59w/mxgemm_gpu_tests.xz > $T && chmod +x $T
limited 170 $T > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s59w/wheel/*.whl > $L/pip.log 2>&1
stamp "wheel install rc=$?"
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 60 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
limited 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GpuStreamGemm.WideTilesAndLongKMatchReference' > $L/memcheck.log 2>&1
stamp "memcheck rc=$?"
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests? ran" logs/T.log | head -12
tail -3 logs/pytest.log
grep -E "ERROR SUMMARY|PASSED|FAILED" logs/memcheck.log | tail -3
cat logs/summary.txt
rm -rf logs
