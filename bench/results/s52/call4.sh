#!/bin/bash
# Session 52, call 4: main d11df0c's library (the device answers cached, every method of a shape
# behind one spin) on whatever GPU came: the GPU suite with the new host-cost test
# (GpuHostCost.*), then every suite in both modes, for the README's table. Built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -T2 -c build-dev/apps/mxgemm_bench > .device/s52/mxgemm_bench.xz   (and the tests)
# Carry [".device/s52"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
B=/tmp/bench; T=/tmp/tests
xz -dc .device/s52/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s52/mxgemm_gpu_tests.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 200 $T > $L/tests.log 2>&1; stamp "gpu tests rc=$?"
limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|host side:" logs/tests.log | tail -8
for f in mid_mx mid_wo decode_mx decode_wo large_wo large_mx; do
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
