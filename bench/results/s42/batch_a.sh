#!/bin/bash
# Session 42 call A: main's head in one build (m41, built at 492e1d3; never run as one build)
# and the branch s42-wide-boxes (m41w: main with boxes of M rows for every one-tile launch,
# as w3 had them, instead of only the 64-row tile's), most needed first:
#  - m41's full GPU suite;
#  - m41 against m41w, MXFP8, alternated, two rounds: b2's sets D (1 / 4 / 7 rows, the 8-row
#    codes form, N in {1024, 4096, 8192, 28672} x 8192) and S (1 / 12 / 17 / 24 rows on 8192 x
#    {8192, 28672}: issue #4's shapes);
#  - the Python suite from a wheel of 492e1d3;
#  - m41w's full GPU suite; memcheck on m41's GpuWorkspace and *Stale* tests.
# Carry [".device/s41/m41", ".device/s41/wheel", ".device/s42/m41w"]. BUDGET (s, default 550) bounds it.
set -u
L=$OUT/logs; mkdir -p $L
BUDGET=${BUDGET:-550}
source "$(dirname "$0")/../s39/common.sh"  # limited (under BUDGET), stamp, table
for v in m41 m41w; do
  d=.device/s41/$v; [ $v = m41w ] && d=.device/s42/m41w
  xz -dc $d/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
  xz -dc $d/mxgemm_gpu_tests.xz > /tmp/gpu_tests_$v && chmod +x /tmp/gpu_tests_$v
done
limited 200 /tmp/gpu_tests_m41 > $L/gpu_suite_m41.log 2>&1; stamp "gpu suite m41 rc=$?"
declare -A SET=(
  [D]="--m 1,4,7 --n 1024,4096,8192,28672 --k 8192 --iters 30"
  [S]="--m 1,12,17,24 --n 8192 --k 8192,28672 --iters 30")
for r in 1 2; do for v in m41 m41w; do for f in D S; do
  limited 45 /tmp/bench_$v ${SET[$f]} --mode mxfp8 > $L/${f}_${v}_r$r.log 2>&1; stamp "$f $v r$r rc=$?"
done; done; done
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s41/wheel/*.whl > $L/pip.log 2>&1
(cd tests/python && export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1 && limited 100 python3 -m pytest -q -rs . > $L/pytest.log 2>&1)
stamp "pytest rc=$?"
limited 200 /tmp/gpu_tests_m41w > $L/gpu_suite_m41w.log 2>&1; stamp "gpu suite m41w rc=$?"
limited 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_m41 --gtest_filter='GpuWorkspace.*:*Stale*' > $L/memcheck.log 2>&1
stamp "memcheck m41 rc=$?"
cd $OUT && tar czf logs_a.tgz logs
for f in D S; do table $f m41 m41w; done
for f in gpu_suite_m41 gpu_suite_m41w memcheck; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED" logs/$f.log | tail -6; done
echo "== pytest"; tail -3 logs/pytest.log
cat logs/summary.txt
rm -rf logs
