#!/bin/bash
# Session 57, call 3: what the weight's per-stage scale chunk costs the kernel (issue #3). The ring
# spike (call 2, H100) streamed 8192^2 with the 128-row tile's stages in 28.7 us without the 512-byte
# scale TMA a stage and 33.5 with it. Here the kernel itself: main (b018642's bench, .device/s57)
# against the ablation (bench/results/s57/ablate_weight_scales.patch on main, built with
# -DCMAKE_CUDA_FLAGS=-DMXGEMM_ABLATE_WEIGHT_SCALES: no scale TMAs, every scale byte 127; timing
# only), two rounds alternated, MXFP8 and weight-only, 128 / 256 / 512 x 8192^2 and 128 x 8192 x
# 28672, 128 x 28672 x 8192. Carry [".device/s57", ".device/s57c"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-400}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s57/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
xz -dc .device/s57c/mxgemm_bench_abl.xz > /tmp/abl && chmod +x /tmp/abl
for r in 1 2; do
  for v in main abl; do
    for mode in mxfp8 weight-only; do
      limited 60 /tmp/$v --m 128,256,512 --n 8192 --k 8192 --iters 20 --mode $mode > $L/A${mode}_${v}_r$r.log 2>&1
      stamp "$v $mode r$r rc=$?"
    done
    limited 60 /tmp/$v --m 128 --n 8192,28672 --k 8192,28672 --iters 20 > $L/Blong_${v}_r$r.log 2>&1
    stamp "$v long r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
table Amxfp8 main abl
table Aweight-only main abl
table Blong main abl
cat logs/summary.txt
rm -rf logs
