#!/bin/bash
# Session 49, call 2: is the mid-M kernel bound by L2? ncu (clocks not locked) on one launch of
# the streaming kernel at MXFP8 128 / 256 x 8192^2 and weight-only 4096 x 8192^2: SOL, memory
# workload (L2 and DRAM throughput, L2 hit rate). Same binaries as call 1 (carry .device/next).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-400}
: > $L/summary.txt
B=/tmp/bench
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
NCU="ncu --clock-control none --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 6 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
for c in "128 mxfp8" "256 mxfp8" "512 mxfp8" "4096 weight-only"; do
  set -- $c
  limited 90 $NCU $B --m $1 --n 8192 --k 8192 --iters 20 --mode $2 > $L/ncu_$1_$2.log 2>&1; stamp "ncu $1 $2 rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in logs/ncu_*.log; do echo "== $f"; grep -E "stream_gemm_sm90_kernel|Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|L2 Hit Rate|SM Frequency|Mem Busy|Max Bandwidth" $f | cut -c1-150 | head -16; done
cat logs/summary.txt
rm -rf logs
