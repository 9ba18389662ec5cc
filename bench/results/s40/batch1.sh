#!/bin/bash
# Session 40 b1 (prepared, not yet run): branch s40-stream-turns (t1, at d228b21): GPU GEMM calls
# take turns on a device's scratch memory (docs/workspace.md). Its GpuWorkspace tests (two
# streams without an order, two host threads, and main's graph tests), those under memcheck, a
# few split-K tests, and the host time of one call (the bench's mxgemm_host_us: the turn adds a
# lock and an event record a call) at 1..64 x {4096, 8192} x 8192, m40 (main) against t1, two rounds.
# Carry [".device/s40/t1", ".device/s40/m40"] (not with .device/s39: the working tree's limit).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"  # limited, table
for v in t1 m40; do
  xz -dc .device/s40/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
done
xz -dc .device/s40/t1/mxgemm_gpu_tests.xz > /tmp/gpu_tests_t1 && chmod +x /tmp/gpu_tests_t1
limited 150 /tmp/gpu_tests_t1 --gtest_filter='GpuWorkspace.*:GpuStreamGemm.SplitTilesSumDeterministically:GpuSkinny*' > $L/gpu_t1.log 2>&1
echo "gpu tests t1 rc=$?" >> $L/summary.txt
limited 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/gpu_tests_t1 --gtest_filter='GpuWorkspace.*' > $L/memcheck_t1.log 2>&1
echo "memcheck t1 rc=$?" >> $L/summary.txt
for round in 1 2; do
  for v in m40 t1; do
    limited 60 /tmp/bench_$v --m 1,4,16,32,64 --n 4096,8192 --k 8192 --iters 10 --csv $L/decode_${v}_r$round.csv > $L/decode_${v}_r$round.log 2>&1
  done
done
cd $OUT && tar czf logs.tgz logs
for f in gpu_t1 memcheck_t1; do echo "== $f"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/$f.log | tail -8; done
echo "== mxgemm per call: M N K | host us m40 r1 r2, t1 r1 r2 | device us m40 r1, t1 r1"
python3 - <<'PY'
import csv
def rows(v, r):
    try:
        return list(csv.DictReader(open(f"logs/decode_{v}_r{r}.csv")))
    except OSError:
        return []
runs = {(v, r): rows(v, r) for v in ("m40", "t1") for r in (1, 2)}
for i, base in enumerate(runs[("m40", 1)]):
    cell = lambda v, r, key: runs[(v, r)][i][key] if i < len(runs[(v, r)]) else "-"
    print(base["m"], base["n"], base["k"], "|",
          *(cell(v, r, "mxgemm_host_us") for v in ("m40", "t1") for r in (1, 2)), "|",
          cell("m40", 1, "mxgemm_us"), cell("t1", 1, "mxgemm_us"))
PY
cat logs/summary.txt
rm -rf logs
