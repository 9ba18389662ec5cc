#!/bin/bash
# Session 57, call 1 (any GPU): (T) main's whole GPU suite (binaries of main b018642, packed in
# .device/s57; device code identical to 8227abd's), which runs the 310th test,
# WholeTilesOf128RowsAtLongKMatchReference, on main's kernel for the first time; then (N) ncu on
# one launch of the 128-row tile (MXFP8 128 x 8192^2) and of the 256-row tile (256 x 8192^2):
# warp-state and per-SASS-instruction stall samples, to see what holds the 128-row tile's
# 1290-cycle stage (the 256-row tile runs at 1047 for 1024 cycles of tensor work). Carry
# [".device/s57"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
for b in mxgemm_gpu_tests mxgemm_bench; do xz -dc .device/s57/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
limited 220 /tmp/mxgemm_gpu_tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
B=/tmp/mxgemm_bench
for m in 128 256; do
  limited 120 ncu --clock-control none --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters --section InstructionStats \
    --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy \
    --import-source yes -f -o $OUT/ncu$m $B --m $m --n 8192 --k 8192 --iters 20 > $L/ncu$m.log 2>&1
  stamp "ncu $m rc=$?"
  ncu --import $OUT/ncu$m.ncu-rep --page details > $L/ncu${m}_details.txt 2>&1
  ncu --import $OUT/ncu$m.ncu-rep --page source --csv --print-source sass > $L/ncu${m}_sass.csv 2>&1
  stamp "export $m rc=$? $(wc -l < $L/ncu${m}_sass.csv) sass lines"
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/T.log | head -8
grep "^\[ margin" logs/T.log | grep "100x34000"
for m in 128 256; do
  echo "== ncu $m"
  grep -E "Duration|Compute \(SM\) Throughput|SM Frequency|Warp Cycles Per Issued|Issue Slots Busy|Stall|Executed Ipc A" logs/ncu${m}_details.txt | cut -c1-120 | head -20
done
cat logs/summary.txt
rm -rf logs
