#!/bin/bash
# For a session with a device (prepared in session 43, which had none; not yet run): where the
# 128- and 256-row tiles' time goes (issue #3: M = 128 needs ~28 us at N = K = 8192, M = 256 ~50).
#  1. The row-blocks spike (bench/spike/row_blocks.cu): the 128-row tile's mainloop with one
#     64-row weight block a math warpgroup (the library's) against two (a 256 x 128 CTA tile),
#     streamed and math only; cycles per million MACs against the tensor rate's 512. ~40 s.
#  2. Timelines (-DMXGEMM_STREAM_TRACE build of the branch s43-row-blocks at 4cc205d, whose
#     other kernels are main's; the m128 MXFP8 kernels spill 64 / 16 bytes in this build, the plain
#     build none / 8): main's forms (--row-blocks 1) at M = 65, 128, 129, 192, 256, 512 x 8192^2,
#     MXFP8 and weight-only: start, dependency wait, first stage, mainloop end, store, cycles a
#     stage; then the row blocks (2, 2c) at MXFP8 128 x {8192, 28672} x 8192. ~90 s.
#  3. ncu of main's plain bench (m42's kernels) at MXFP8 128 / 256 x 8192^2: speed of light,
#     memory, warp states and instruction stats of the streaming kernel. ~2-3 min.
#  4. Session 42's open lead: weight-only 33 / 48 / 64 x 8192 x 4096, the library's choice against
#     the one-tile-a-CTA split (--split-k always), alternated, two rounds (m42). ~40 s.
# Carry [".device/s43/spike", ".device/s43/trace", ".device/s42/m42"] (about 17 MB).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
: > $L/summary.txt
xz -dc .device/s43/spike/row_blocks.xz > /tmp/row_blocks && chmod +x /tmp/row_blocks
xz -dc .device/s43/trace/mxgemm_bench.xz > /tmp/bench_trace && chmod +x /tmp/bench_trace
[ -d .device/s42/m42 ] && xz -dc .device/s42/m42/mxgemm_bench.xz > /tmp/bench_m42 && chmod +x /tmp/bench_m42
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 60 /tmp/row_blocks 8192 > $L/row_blocks_8192.log 2>&1; stamp "row_blocks 8192 rc=$?"
limited 60 /tmp/row_blocks 16384 > $L/row_blocks_16384.log 2>&1; stamp "row_blocks 16384 rc=$?"
for mode in mxfp8 weight-only; do
  MXGEMM_TRACE=1 limited 60 /tmp/bench_trace --m 65,128,129,192,256,512 --n 8192 --k 8192 --iters 20 --mode $mode \
    --row-blocks 1 > $L/trace_$mode.log 2>&1; stamp "trace $mode rc=$?"
done
for v in 2 2c; do
  MXGEMM_TRACE=1 limited 40 /tmp/bench_trace --m 128 --n 8192,28672 --k 8192 --iters 20 --row-blocks $v \
    > $L/trace_rb$v.log 2>&1; stamp "trace row blocks $v rc=$?"
done
if [ -x /tmp/bench_m42 ]; then
  SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats"
  for m in 128 256; do
    limited 150 ncu --kernel-name regex:stream_gemm_sm90 --launch-skip 3 --launch-count 1 $SECT /tmp/bench_m42 --m $m --n 8192 \
      --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_mx_${m}.log 2>&1; stamp "ncu $m rc=$?"
  done
fi
if [ -x /tmp/bench_m42 ]; then
  for round in 1 2; do
    for v in auto always; do
      limited 30 /tmp/bench_m42 --m 33,48,64 --n 8192 --k 4096 --iters 30 --mode weight-only --split-k $v \
        > $L/WS_${v}_r$round.log 2>&1; stamp "WS $v r$round rc=$?"
    done
  done
fi
cd $OUT && tar czf logs.tgz logs
echo "== row_blocks (K = 8192, then 16384)"; grep "^|" logs/row_blocks_8192.log; grep "^| rb" logs/row_blocks_16384.log
echo "== timelines (last launch of each shape; us from the first pre-pass start)"
for mode in mxfp8 weight-only rb2 rb2c; do
  echo "-- $mode"
  grep TRACE logs/trace_$mode.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}' | \
    sed -E 's/ \| (producer_up|maps|work_ready|expect|scale_tma|first_tma) [^|]*//g' | cut -c1-900
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print "   ", $1, $2, $3, "mxgemm", $5, "us, cuBLAS bf16", $8}' logs/trace_$mode.log
done
echo "== ncu (streaming kernel, one launch)"
for m in 128 256; do
  echo "-- MXFP8 $m x 8192^2"
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Cache Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc Active" logs/ncu_mx_${m}.log 2>/dev/null | head -16
done
[ -f logs/WS_auto_r1.log ] && table WS auto always
cat logs/summary.txt
rm -rf logs
