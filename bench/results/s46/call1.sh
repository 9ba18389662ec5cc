#!/bin/bash
# Session 46, device call 1 (main at 5daa225 and the session 43 spike; the session 44 candidates
# build was lost with its branch): where the 128- and 256-row tiles' time goes (issue #3).
#  1. bench/spike/row_blocks.cu at K = 8192 and 16384: the 128-row tile's mainloop with one
#     64-row weight block a math warpgroup (main's) against two (a 256 x 128 CTA tile),
#     streamed and math only; cycles per million MACs against the tensor rate's 512.
#  2. main's bench at issue #3's and #7's shapes, two rounds (us, against the peers).
#  3. ncu of main's streaming kernel at MXFP8 128 / 256 x 8192^2.
# Carry [".device/s46/main", ".device/s46/spike"]. Summary last; logs in $OUT/logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
B=/tmp/bench_main
xz -dc .device/s46/main/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s46/spike/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 60 /tmp/row_blocks 8192 > $L/row_blocks_8192.log 2>&1; stamp "row_blocks 8192 rc=$?"
limited 60 /tmp/row_blocks 16384 > $L/row_blocks_16384.log 2>&1; stamp "row_blocks 16384 rc=$?"
for r in 1 2; do
  limited 40 $B --m 128,129,192,256 --n 8192 --k 8192 --iters 30 > $L/M3_main_r$r.log 2>&1; stamp "mxfp8 r$r rc=$?"
  limited 40 $B --m 4096,8192 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/W7_main_r$r.log 2>&1; stamp "wo r$r rc=$?"
done
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats --section Occupancy --section LaunchStats"
for m in 128 256; do
  limited 150 ncu --kernel-name regex:stream_gemm_sm90 --launch-skip 3 --launch-count 1 $SECT $B --m $m --n 8192 \
    --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_mx_${m}.log 2>&1; stamp "ncu $m rc=$?"
done
cd $OUT && tar czf logs.tgz logs
echo "== row_blocks (K = 8192, then 16384)"; grep "^|" logs/row_blocks_8192.log; grep "^| rb" logs/row_blocks_16384.log
echo "== main: M N K | mxgemm r1 r2 | cuBLAS bf16 | fp8 | check"
for s in M3 W7; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${s}_main_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $16, $NF}' logs/${s}_main_r2.log)
done
echo "== ncu (streaming kernel, one launch)"
for m in 128 256; do
  echo "-- MXFP8 $m x 8192^2"
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Cache Throughput|Shared|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc Active|Registers Per|Grid Size|Block Size" logs/ncu_mx_${m}.log 2>/dev/null | head -24
done
cat logs/summary.txt
rm -rf logs
