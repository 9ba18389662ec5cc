#!/usr/bin/env bash
# session 10 batch H: large suite at 4bba64e (epilogue refactor check); where the time goes at M = 256
cd .device
timeout 240 ./cur/mxgemm_bench --suite large --iters 20 > $OUT/large_mx.log 2>&1; echo "large rc=$?"
grep -A3 "geometric mean" $OUT/large_mx.log | head -3
M="gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
for s in "256 8192 8192" "128 8192 8192"; do
  set -- $s; echo "### $1x$2x$3 weight-only"
  timeout 100 ncu --kill yes --cache-control none --clock-control none -c 4 -k regex:"stream" --metrics $M ./cur/mxgemm_bench --m $1 --n $2 --k $3 --iters 20 --mode weight-only 2>&1 | grep -E "^  [a-z_]+.*\(|gpu__time|sm__|dram__"
done > $OUT/ncu_mid.log 2>&1
grep -E "###|gpu__time_duration|tensor|sm__cycles" $OUT/ncu_mid.log | sed 's/  */ /g' | cut -c1-100
timeout 200 ncu --kill yes -k regex:stream_gemm --launch-skip 1 -c 1 --set full --import-source no -o $OUT/full256 ./cur/mxgemm_bench --m 256 --n 8192 --k 8192 --iters 20 --mode weight-only > /dev/null 2>&1; echo "ncu full rc=$?"
ncu -i $OUT/full256.ncu-rep > $OUT/full256_details.txt 2>&1
ncu -i $OUT/full256.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $OUT/full256_source.csv.gz
grep -E "stream_gemm|Duration|DRAM Throughput|Issue Slots|No Eligible|L2 Hit|SM Active|Elapsed Cycles" $OUT/full256_details.txt | head -12
rm -f $OUT/full256.ncu-rep
