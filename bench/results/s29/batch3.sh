#!/usr/bin/env bash
# Session 29 batch 3: is the activation's L2 -> SM traffic what holds 64 rows? The TMA ring spike
# (bench/spike/ring_stream.cu, built as .device/s29/spike/ring_stream: no math, a consumer that
# only waits and releases) with an L2-resident bf16 activation box of 0, 32 or 64 rows a stage,
# 128 K a stage, 128B swizzle, evict_first, on weights of one tile a CTA (132 x 128 rows and
# 132 x 256 rows, K 8192: no imbalance). Then the kernel on the same shapes (s28/c4, main).
mkdir -p $OUT/logs
S=.device/s29/spike/ring_stream
export RING_HINT=1 RING_SWZ=1
RING_N=16896 $S tma:128:128:4:1:0:1:128:0 tma:128:128:4:1:0:1:128:32 tma:128:128:4:1:0:1:128:64 \
  tma:128:128:6:1:0:1:128:64 tma:128:128:8:1:0:1:128:0 2>&1 | tee $OUT/logs/ring128.log
RING_N=33792 $S tma:256:128:4:1:0:1:128:0 tma:256:128:4:1:0:1:128:32 tma:256:128:4:1:0:1:128:64 \
  tma:256:128:3:1:0:1:128:64 tma:256:128:5:1:0:1:128:32 2>&1 | tee $OUT/logs/ring256.log
# the same two weights as GEMMs: 32 and 64 rows (main's tiles: 256 weight rows at 32, 128 at 64)
B=.device/s28/c4
(cd $B && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done)
for mode in mxfp8 weight-only; do
  timeout 100 $B/mxgemm_bench --mode $mode --m 32,64 --n 16896,33792 --k 8192 --iters 20 > $OUT/logs/kernel_$mode.log 2>&1 || echo "rc=$?"
  awk -v t=$mode '$4=="|" {printf "%s %sx%sx%s %s us (x floor %s)\n", t,$1,$2,$3,$5,$25}' $OUT/logs/kernel_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
