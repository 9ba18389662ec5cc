#!/bin/bash
# Session 57, call 2: is M = 128's mainloop (issue #3) bound by moving its data? (R) The TMA ring
# spike (bench/spike/ring_stream.cu, built here: nvcc -O3 -std=c++17
# -gencode=arch=compute_90a,code=sm_90a -lcuda; read flush, no math) streams the 8192^2 weight as
# the 128-row tile does, 128 weight rows x 128 K a stage, 4 stages, 128 CTAs in K halves, without
# and with 128 rows of bf16 activation a stage and with the weight's scale chunks; then 256-row
# weight tiles (128 CTAs in K quarters) with the same activation, which halves the activation's
# bytes per weight byte. Then (N) ncu's stall samples of the 128-row tile, as call 1's (H100) did,
# on this GPU. On an H200 then (S) every suite for the README's H200 columns (session 49's).
# Carry [".device/s57", ".device/s57b"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s57/mxgemm_bench.xz > /tmp/mxgemm_bench && chmod +x /tmp/mxgemm_bench
R=.device/s57b/ring_stream
for n in 8192 28672; do
  RING_N=$n RING_K=8192 RING_CLEAN_FLUSH=1 limited 40 $R tma:128:128:4:1:128:2:128:0 tma:128:128:4:1:128:2:128:128 \
    tma:256:128:3:1:128:4:128:128 tma:256:64:6:1:128:4:64:128 tma:256:128:3:1:128:4:128:0 > $L/ring_$n.log 2>&1
  stamp "ring $n rc=$?"
  RING_SCALES=1 RING_N=$n RING_K=8192 RING_CLEAN_FLUSH=1 limited 40 $R tma:128:128:4:1:128:2:128:128 \
    tma:256:128:3:1:128:4:128:128 > $L/ring_scales_$n.log 2>&1
  stamp "ring scales $n rc=$?"
done
B=/tmp/mxgemm_bench
limited 90 ncu --clock-control none --kill yes --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis \
  --import-source yes -f -o $OUT/ncu128 $B --m 128 --n 8192 --k 8192 --iters 20 --warmup-ms 0 > $L/ncu128.log 2>&1
stamp "ncu 128 rc=$?"
ncu --import $OUT/ncu128.ncu-rep --page details > $L/ncu128_details.txt 2>&1
ncu --import $OUT/ncu128.ncu-rep --page source --csv --print-source sass > $L/ncu128_sass.csv 2>&1
limited 30 $B --m 128,256 --n 8192 --k 8192 --iters 20 > $L/plain.log 2>&1; stamp "plain rc=$?"
if grep -q H200 $L/smi.log; then
  limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
  limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
  limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
  limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
fi
cd $OUT && tar czf logs.tgz logs
cat logs/ring_*.log | grep -E "tma|bad|fit|encode"
grep -E "Duration|SM Frequency|L2 Cache Throughput|DRAM Throughput" logs/ncu128_details.txt | head -4
grep -hE "^ +(128|256) +8192" logs/plain.log | cut -c1-110
for f in mid_mx mid_wo large_wo large_mx decode_mx decode_wo; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
