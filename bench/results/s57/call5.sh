#!/bin/bash
# Session 57, call 5 (meant as the session's last device time; call 7 came after): the data-movement picture of the M = 128
# tile on whichever GPU comes. (R) call 2's ring spikes (ring_stream, built here; with the scale
# chunks one a stage or grouped 2 / 4 / 8 a TMA); on an H200 also (N) ncu's stall samples of MXFP8
# 128 x 8192^2 and (S) the mid / large / decode suites for the README's H200 columns (session
# 49's); then, with the time left, (M) tma_stream's default sweep (session 12's: box shapes,
# activation rows, K phases, multicast in clusters of two; memset flush, rates comparable among
# themselves). Carry [".device/s57", ".device/s57b"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-285}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
R=.device/s57b/ring_stream
for n in 8192 28672; do
  for s in 0 1 4 8; do
    RING_SCALES=$s RING_N=$n RING_K=8192 RING_CLEAN_FLUSH=1 limited 20 $R tma:128:128:4:1:128:2:128:0 tma:128:128:4:1:128:2:128:128 \
      tma:256:128:3:1:128:4:128:128 >> $L/ring.log 2>&1
  done
done
stamp "ring rc=$?"
if grep -q H200 $L/smi.log; then
  xz -dc .device/s57/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
  B=/tmp/mxgemm_bench
  limited 40 ncu --clock-control none --kill yes --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    --import-source yes -f -o $OUT/ncu128 $B --m 128 --n 8192 --k 8192 --iters 20 --warmup-ms 0 > $L/ncu128.log 2>&1
  stamp "ncu 128 rc=$?"
  ncu --import $OUT/ncu128.ncu-rep --page source --csv --print-source sass > $L/ncu128_sass.csv 2>&1
  limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
  limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
  limited 60 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
  limited 60 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
  limited 50 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
fi
limited 60 .device/s57b/tma_stream > $L/tma_stream.log 2>&1; stamp "tma_stream rc=$?"
cd $OUT && tar czf logs.tgz logs
grep tma logs/ring.log | sed 's/hint 0 promo 3 swz 0 cluster 1 dynamic 0 flush read //'
for f in mid_mx mid_wo decode_mx decode_wo large_mx; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
grep -E "^ +(128|256) +(64|128|256)" logs/tma_stream.log | head -40
cat logs/summary.txt
rm -rf logs
