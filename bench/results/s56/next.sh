#!/bin/bash
# Prepared in session 56 for the next session with device time (not run yet). Binaries:
# .device/s57/{mxgemm_gpu_tests,mxgemm_bench}.xz, main b018642's build-dev (device code identical
# to 8227abd's), packed with xz -T2 -c; rebuild them if main's source has changed since.
# Any GPU: (T) the whole GPU suite (310 tests: the 310th, WholeTilesOf128RowsAtLongKMatchReference,
# has not yet run on main's kernel). Then on an H200 only: (S) every suite in both modes, for the
# README's H200 columns (session 49's), as call2.sh does. Carry [".device/s57"]. About 8 minutes
# on an H200, 3 elsewhere.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-570}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for b in mxgemm_gpu_tests mxgemm_bench; do xz -dc .device/s57/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
limited 200 /tmp/mxgemm_gpu_tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
if grep -q H200 $L/smi.log; then
  B=/tmp/mxgemm_bench
  limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
  limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/T.log | head -8
grep "^\[ margin" logs/T.log | grep "100x34000" 
for f in mid_mx mid_wo large_wo large_mx decode_mx decode_wo; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
