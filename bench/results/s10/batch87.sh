#!/usr/bin/env bash
# session 10 batch D: where the time goes at 32 x 4096 x 4096 (split-reduce branch)
cd .device
M="gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size"
for s in "32 4096 4096" "32 1024 8192" "64 4096 4096" "16 4096 4096"; do
  set -- $s
  echo "### $1x$2x$3"
  timeout 100 ncu --kill yes -c 6 -k regex:"stream|prepass|reduce|skinny|scale" --metrics $M ./split/mxgemm_bench --m $1 --n $2 --k $3 --iters 20 2>&1 | grep -E "^  [a-z_]+.*\(|gpu__time|sm__cycles|dram__|launch__grid" 
done > $OUT/ncu_durations.log 2>&1
grep -E "###|\(|gpu__time_duration" $OUT/ncu_durations.log | sed 's/  */ /g' | cut -c1-150
timeout 200 ncu --kill yes -c 1 -k regex:"stream_gemm" --set full ./split/mxgemm_bench --m 32 --n 4096 --k 4096 --iters 20 > $OUT/ncu_full_32x4096.log 2>&1; echo "ncu full rc=$?"
grep -E "Duration|Throughput|Issue Slots|Eligible|No Eligible|Active Warps|One or More|Stall|L2 Hit|Registers" $OUT/ncu_full_32x4096.log | head -40
