#!/bin/bash
# For the next session with an H200 (prepared in session 46, whose device was an H100): main's
# head re-timed at the issues' shapes on the H200, weight-only 129..192 rows in 192-row tiles
# (--width-192 always) against the library's 256-row ones, the row-blocks spike, and ncu of the 128- and
# 256-row tiles (issue #3: where the 128-row tile's time goes; session 46 measured row blocks
# 10-40% slower, so shared-memory bandwidth is not it).
# Build here first (git-ignored binaries do not survive a new checkout):
#   cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DMXGEMM_SM100=OFF \
#     -DMXGEMM_BUILD_SPIKES=OFF && cmake --build build-dev -j2 --target mxgemm_bench
#   mkdir -p .device/next build-spike && xz -c build-dev/apps/mxgemm_bench > .device/next/mxgemm_bench.xz
#   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I src -I include -I bench/spike \
#     -o build-spike/row_blocks bench/spike/row_blocks.cu && xz -c build-spike/row_blocks > .device/next/row_blocks.xz
# Carry [".device/next"]. About 7 min. Summary last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
B=/tmp/bench_main
xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/next/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for r in 1 2; do
  limited 40 $B --m 128,160,256 --n 8192 --k 8192 --iters 30 > $L/M3_main_r$r.log 2>&1; stamp "issue #3 shapes r$r rc=$?"
  limited 40 $B --m 1,16,64 --n 8192 --k 8192 --iters 30 > $L/M4_main_r$r.log 2>&1; stamp "issue #4 shapes r$r rc=$?"
  limited 40 $B --m 4096 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/W7_main_r$r.log 2>&1; stamp "issue #7 r$r rc=$?"
  # Weight-only 129..192 rows: the 256-row tiles (the library's) against the 192-row ones.
  for v in auto always; do
    limited 25 $B --m 129,160,192 --n 8192 --k 8192 --iters 20 --mode weight-only --width-192 $v > $L/V_${v}_r$r.log 2>&1
    stamp "V $v r$r rc=$?"
  done
done
limited 50 /tmp/row_blocks 8192 > $L/row_blocks_8192.log 2>&1; stamp "row_blocks 8192 rc=$?"
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats"
for m in 128 256; do
  limited 80 ncu --kernel-name regex:stream_gemm_sm90 --launch-skip 3 --launch-count 1 $SECT $B --m $m --n 8192 \
    --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_mx_${m}.log 2>&1; stamp "ncu $m rc=$?"
done
cd $OUT && tar czf logs.tgz logs
echo "== main: M N K | mxgemm r1 r2 | cuBLAS bf16 | cuBLASLt fp8 | check"
for s in M3 M4 W7; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${s}_main_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $16, $NF}' logs/${s}_main_r2.log)
done
table V auto always
echo "== row_blocks spike (K = 8192)"; grep "^|" logs/row_blocks_8192.log
echo "== ncu (streaming kernel, one launch)"
for m in 128 256; do
  echo "-- MXFP8 $m x 8192^2"
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Cache Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc Active" logs/ncu_mx_${m}.log 2>/dev/null | head -16
done
cat logs/summary.txt
rm -rf logs
