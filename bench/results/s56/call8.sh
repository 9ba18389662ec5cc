#!/bin/bash
# Session 56, call 8: the two-fragment loop's promotion after chains of register_chain_k (8192 K
# for BF16 out, 2048 for FP32, 512 for FP16) instead of every 512 K (call 5: at 128 x 8192^2 a
# 128-K stage took 1290 cycles for 1024 of tensor work; each promotion drains the warpgroup's
# wgmmas). Binaries: .device/s56/mxgemm_bench.xz (main 8227abd), .device/s56/chain/{mxgemm_bench,
# mxgemm_gpu_tests}.xz (this tree). (G) the tree's GPU suite (with the new
# WholeTilesOf128RowsAtLongKMatchReference). (A) main against the tree, alternated, two rounds:
# MXFP8 and weight-only at 65..512 x 8192^2 (256 and 512 rows: the 256-row tiles, unchanged), the
# split's 16..64 rows at 8192 x {8192, 28672}, and 128 rows with FP32 and FP16 out. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-500}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s56/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
xz -dc .device/s56/chain/mxgemm_bench.xz > /tmp/chain && chmod +x /tmp/chain
xz -dc .device/s56/chain/mxgemm_gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
limited 200 /tmp/tests > $L/G.log 2>&1; stamp "G gpu suite rc=$?"
for r in 1 2; do
  for v in main chain; do
    limited 20 /tmp/$v --m 65,96,128,256,512 --n 8192 --k 8192 --iters 20 > $L/A_${v}_r$r.log 2>&1; stamp "A $v r$r rc=$?"
    limited 20 /tmp/$v --m 65,96,128,256,512 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/W_${v}_r$r.log 2>&1; stamp "W $v r$r rc=$?"
    limited 20 /tmp/$v --m 16,32,64 --n 8192 --k 8192,28672 --iters 20 --mode weight-only > $L/D_${v}_r$r.log 2>&1; stamp "D $v r$r rc=$?"
    limited 20 /tmp/$v --m 32,64 --n 8192 --k 8192,28672 --iters 20 > $L/E_${v}_r$r.log 2>&1; stamp "E $v r$r rc=$?"
    limited 15 /tmp/$v --m 128 --n 8192 --k 8192 --iters 20 --mx-out fp32 > $L/F_${v}_r$r.log 2>&1; stamp "F $v r$r rc=$?"
    limited 15 /tmp/$v --m 128 --n 8192 --k 8192 --iters 20 --mx-out fp16 > $L/H_${v}_r$r.log 2>&1; stamp "H $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/G.log | head -8
grep -E "WholeTilesOf128Rows.*(OK|FAILED)" logs/G.log
grep "^\[ margin" logs/G.log | grep -E "x 34000|8448 x 1024" | sed "s/^\[ margin   \] //" | head -24
for s in A W D E F H; do table $s main chain; done
cat logs/summary.txt
rm -rf logs
