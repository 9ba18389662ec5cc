#!/usr/bin/env bash
# Session 20 batch 1: is M = 128 / 256 at N = K = 8192 bound by L2 reads of the activation?
# Ring spike (no math) in the streaming kernel's M = 128 / 256 patterns, with the full, half
# and no activation per stage; the bench at head; ncu of the streaming kernel at M = 128, 256.
cd .device/s20
for f in spike/*.xz head/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=8192 RING_K=8192 RING_HINT=$1 $S $2 | tail -1 | sed "s/^/hint $1 /"; }
{
for h in 0 1; do
  for x in 128 64 0; do r $h tma:128:64:8:1:128:2:64:$x; done
  for x in 128 64; do r $h tma:128:128:4:1:128:2:128:$x; done
  for x in 256 128 0; do r $h tma:128:64:5:1:128:2:64:$x; done
  r $h tma:256:64:8:1:128:4:64:128
  r $h tma:256:64:8:1:128:4:64:64
done
} > $OUT/ring.log 2>&1
cat $OUT/ring.log
./head/mxgemm_bench --m 128,256 --n 8192 --k 8192 --iters 30 > $OUT/bench.log 2>&1
awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $10, $16, $25}' $OUT/bench.log
for m in 128 256; do
timeout 150 ncu --kernel-name regex:stream_gemm --launch-skip 3 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section WarpStateStats --section LaunchStats \
  --metrics lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
  ./head/mxgemm_bench --m $m --n 8192 --k 8192 --iters 5 > $OUT/ncu_$m.txt 2>&1; echo "ncu $m rc=$?"
grep -E "Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Compute \(SM\)|lts__t|dram__bytes|hmma|Grid Size|Cluster|L1/TEX Hit|L2 Hit|Issue Slots Busy|Max Bandwidth" $OUT/ncu_$m.txt | head -30
done
