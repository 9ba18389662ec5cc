#!/bin/bash
# Session 41 call B (one call for what calls A and s40's batch1 would do, as the device was
# scarce; most needed first): carry [".device/s41/w3n", ".device/s40/m40", ".device/s40/t1", ".device/s40/wheel"].
#  - the torch graph tests from s40's wheel, with the graph-after-growth test in its own process;
#  - w3n (branch s41-w3: main 9c91b8d + s39-whole-boxes, boxes of M rows narrowed to one 64-row
#    tile): full GPU suite; m40 (main, c0's kernels) against w3n, MXFP8 and weight-only, 1..64 rows;
#  - t1 (branch s40-stream-turns, d228b21): its GpuWorkspace and split tests, memcheck on
#    GpuWorkspace, host us a call m40 against t1;
#  - last, with what time is left: w3n's new tests under memcheck.
# BUDGET (seconds, default 520) bounds the whole batch.
set -u
L=$OUT/logs; mkdir -p $L
BUDGET=${BUDGET:-520}
source "$(dirname "$0")/../s39/common.sh"  # limited (under BUDGET), stamp, table
for v in w3n m40 t1; do
  d=.device/s40/$v; [ $v = w3n ] && d=.device/s41/w3n
  xz -dc $d/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
  xz -dc $d/mxgemm_gpu_tests.xz > /tmp/gpu_tests_$v && chmod +x /tmp/gpu_tests_$v
done
limited 200 /tmp/gpu_tests_w3n > $L/gpu_suite_w3n.log 2>&1; echo "gpu suite w3n rc=$?" >> $L/summary.txt
limited 60 /tmp/gpu_tests_t1 --gtest_filter='GpuWorkspace.*:GpuStreamGemm.SplitTilesSumDeterministically:GpuSkinny*' > $L/gpu_t1.log 2>&1
echo "gpu tests t1 rc=$?" >> $L/summary.txt
limited 90 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_t1 --gtest_filter='GpuWorkspace.*' > $L/memcheck_t1.log 2>&1
echo "memcheck t1 rc=$?" >> $L/summary.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .device/s40/wheel/*.whl > $L/pip.log 2>&1
(cd tests/python && export PYTHONPATH=/tmp/site && limited 60 python3 -m pytest -q -rs test_torch_ops.py -k "larger_eager_call or graph or alpha" > $L/pytest_graph.log 2>&1)
echo "pytest graph rc=$?" >> $L/summary.txt
S="--m 1,16,33,48,64 --n 4096 --k 8192 --iters 30"
for mode in mxfp8 weight-only; do
  for r in 1 2; do for v in m40 w3n; do limited 25 /tmp/bench_$v $S --mode $mode > $L/${mode}_${v}_r$r.log 2>&1; done; done
done
for r in 1 2; do for v in m40 t1; do
  limited 25 /tmp/bench_$v --m 1,16,64 --n 4096 --k 8192 --iters 30 --csv $L/host_${v}_r$r.csv > $L/host_${v}_r$r.log 2>&1
done; done
limited 300 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_w3n --gtest_filter='*Stale*:*TwoWarpgroupSplitIsTaken*' > $L/memcheck_w3n.log 2>&1
echo "memcheck w3n rc=$?" >> $L/summary.txt
cd $OUT && tar czf logs_b.tgz logs
for mode in mxfp8 weight-only; do table $mode m40 w3n; done
echo "== host us a call: M N K | m40 r1 r2 | t1 r1 r2 | device us m40 t1"
python3 - <<'PY'
import csv
def rows(v, r):
    try: return list(csv.DictReader(open(f"logs/host_{v}_r{r}.csv")))
    except OSError: return []
R = {(v, r): rows(v, r) for v in ("m40", "t1") for r in (1, 2)}
for i, b in enumerate(R[("m40", 1)]):
    c = lambda v, r, k: R[(v, r)][i][k] if i < len(R[(v, r)]) else "-"
    print(b["m"], b["n"], b["k"], "|", c("m40", 1, "mxgemm_host_us"), c("m40", 2, "mxgemm_host_us"), "|",
          c("t1", 1, "mxgemm_host_us"), c("t1", 2, "mxgemm_host_us"), "|", c("m40", 1, "mxgemm_us"), c("t1", 1, "mxgemm_us"))
PY
for f in gpu_suite_w3n gpu_t1 memcheck_t1 memcheck_w3n; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED" logs/$f.log | tail -6; done
echo "== pytest"; tail -2 logs/pytest_graph.log
cat logs/summary.txt
rm -rf logs
