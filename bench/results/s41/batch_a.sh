#!/bin/bash
# Session 41 call A: branch s41-w3 (main at 9c91b8d with the overflow-edge comparison, merged
# with s39-whole-boxes, w3, boxes of M rows narrowed to one 64-row tile: 5d?), in .device/s41/w3n: its full GPU suite, its
# new tests under memcheck; and the reworked torch test of a graph replayed after the scratch
# memory grew (now in a process of its own), from s40's wheel.
# Then c0 (session 38's kernels) against w3n, alternated, MXFP8 and weight-only, 1..64 rows.
# Carry [".device/s41/w3n", ".device/s40/wheel", ".device/s39/c0"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"  # limited, table
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s40/wheel/*.whl > $L/pip.log 2>&1
(cd tests/python && export PYTHONPATH=/tmp/site && limited 50 python3 -m pytest -q -rs test_torch_ops.py -k "larger_eager_call or graph or alpha" > $L/pytest_graph.log 2>&1)
echo "pytest graph rc=$?" >> $L/summary.txt
xz -dc .device/s41/w3n/mxgemm_gpu_tests.xz > /tmp/gpu_tests_w3n && chmod +x /tmp/gpu_tests_w3n
limited 220 /tmp/gpu_tests_w3n > $L/gpu_suite_w3n.log 2>&1; echo "gpu suite w3n rc=$?" >> $L/summary.txt
for v in c0 w3n; do
  d=.device/s39/$v; [ $v = w3n ] && d=.device/s41/w3n
  xz -dc $d/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
done
S="--m 1,16,33,48,64 --n 4096 --k 8192 --iters 30"
for mode in mxfp8 weight-only; do
  for v in c0 w3n c0 w3n; do
    r=1; [ -f $L/${mode}_${v}_r1.log ] && r=2
    limited 25 /tmp/bench_$v $S --mode $mode > $L/${mode}_${v}_r$r.log 2>&1
  done
done
limited 260 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_w3n --gtest_filter='*Stale*:*TwoWarpgroupSplitIsTaken*' > $L/memcheck_w3n.log 2>&1
echo "memcheck w3n rc=$?" >> $L/summary.txt
cd $OUT && tar czf logs_a.tgz logs
for mode in mxfp8 weight-only; do table $mode c0 w3n; done
for f in gpu_suite_w3n memcheck_w3n; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/$f.log | tail -8; done
echo "== pytest"; tail -3 logs/pytest_graph.log
cat logs/summary.txt
rm -rf logs
