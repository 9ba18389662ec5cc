#!/bin/bash
# Prepared in session 57 for the next session (not run yet). Carry [".device/s57", ".device/s57b"].
# (R) any GPU: the premise of the 256 x 128 tile (bench/results/s57/README.md, "What this says"):
#     the TMA ring alone (ring_stream, read flush, no math) with the 128-row tile's stages
#     (128 weight rows x 128 K + 128 x 128 fp16 activation, 4 stages, 128 CTAs in K halves)
#     against 256 weight rows x 64 K + 128 x 64 activation (6 stages, K in quarters) and 256 x 128
#     K (3 stages), with and without the scale chunks, 8192^2 and 28672 x 8192. If a stage's
#     bytes into the SM are the bound, the 256-row forms stream in about 80% of the time on the
#     H200 (on the H100, call 2, DRAM holds all three at 28.5-29.3 us).
# (W) on an H200 only: the weight-only decode suite (session 57's call 7 ran out inside it).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
R=.device/s57b/ring_stream
for r in 1 2; do
  for n in 8192 28672; do
    for s in 0 1; do
      RING_SCALES=$s RING_N=$n RING_K=8192 RING_CLEAN_FLUSH=1 limited 20 $R tma:128:128:4:1:128:2:128:128 \
        tma:256:64:6:1:128:4:64:128 tma:256:128:3:1:128:4:128:128 tma:128:128:4:1:128:2:128:0 >> $L/ring_r$r.log 2>&1
    done
  done
done
stamp "ring rc=$?"
if grep -q H200 $L/smi.log; then
  xz -dc .device/s57/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
  limited 120 /tmp/mxgemm_bench --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1
  stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
grep -h tma logs/ring_r*.log | sed 's/hint 0 promo 3 swz 0 cluster 1 dynamic 0 flush read //'
[ -f logs/decode_wo.log ] && { grep -A3 "geometric mean" logs/decode_wo.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/decode_wo.log | tail -1; }
cat logs/summary.txt
rm -rf logs
