#!/bin/bash
# Session 57, call 4: the weight's scale chunks of each work item prefetched into L2 in one bulk
# read (stream_gemm_kernel.cuh, prefetch_scale_chunks; binaries in .device/s57d, main + that
# change) against main (.device/s57), two rounds alternated: decode and mid shapes, MXFP8 and
# weight-only; then (T) the whole GPU suite of the new build. Carry [".device/s57", ".device/s57d"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s57/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
xz -dc .device/s57d/mxgemm_bench.xz > /tmp/pf && chmod +x /tmp/pf
xz -dc .device/s57d/mxgemm_gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
for r in 1 2; do
  for v in main pf; do
    for mode in mxfp8 weight-only; do
      limited 40 /tmp/$v --m 1,16,128,192 --n 8192 --k 8192 --iters 20 --mode $mode > $L/S${mode}_${v}_r$r.log 2>&1
      stamp "$v $mode 8192 r$r rc=$?"
      limited 40 /tmp/$v --m 1,16,128 --n 28672 --k 8192 --iters 20 --mode $mode > $L/L${mode}_${v}_r$r.log 2>&1
      stamp "$v $mode 28672 r$r rc=$?"
    done
  done
done
limited 220 /tmp/tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
cd $OUT && tar czf logs.tgz logs
for s in Smxfp8 Sweight-only Lmxfp8 Lweight-only; do table $s main pf; done
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/T.log | head -8
cat logs/summary.txt
rm -rf logs
