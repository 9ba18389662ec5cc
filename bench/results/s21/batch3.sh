#!/usr/bin/env bash
# Session 21 batch 3: what a TMA ring alone streams with 16, 32 and 64 activation rows a stage
# (the streaming kernel's patterns at M = 16, 32 and 64 on the 224 MB weights); ncu of the
# streaming kernel at weight-only 16 (fin) and 32 rows (head) x 28672 x 8192.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=$1 RING_K=$2 RING_HINT=1 RING_SWZ=1 $S $3 | tail -1 | sed "s/^/$1x$2 /"; }
{
for round in 1 2; do
  r 28672 8192 tma:256:128:4:1:112:1:128:16
  r 28672 8192 tma:256:128:4:1:112:1:128:32
  r 28672 8192 tma:128:128:4:1:112:1:128:64
  r 28672 8192 tma:128:128:4:1:112:1:128:32
  r 8192 28672 tma:256:128:4:1:128:4:128:16
  r 8192 28672 tma:256:128:4:1:128:4:128:32
  r 8192 28672 tma:128:128:4:1:128:2:128:64
done
} > $OUT/ring.log 2>&1
cat $OUT/ring.log
SEC="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis"
timeout 120 ncu --kill yes -k regex:stream_gemm -c 1 $SEC ./head/mxgemm_bench --mode weight-only --m 32 --n 28672 --k 8192 --iters 20 > $OUT/ncu_wo32_head.log 2>&1; echo "ncu rc=$?"
timeout 120 ncu --kill yes -k regex:stream_gemm -c 1 $SEC ./fin/mxgemm_bench --mode weight-only --m 16 --n 28672 --k 8192 --iters 20 > $OUT/ncu_wo16_fin.log 2>&1; echo "ncu rc=$?"
for f in $OUT/ncu_*.log; do echo "== $f"; grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|SM Busy|Compute \(SM\)|Executed Ipc A" $f | sed 's/  */ /g'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
