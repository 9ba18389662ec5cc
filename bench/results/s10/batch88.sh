#!/usr/bin/env bash
# session 10 batch E: float4 split reduction; profile of the M = 32 streaming kernel
cd .device
timeout 170 ./split/mxgemm_gpu_tests --gtest_filter="GpuStreamGemm.*:GpuWeightOnly.*:GpuGemm.ScalesOutside*" > $OUT/gpu_tests.log 2>&1; echo "gpu subset rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
M="gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed"
for s in "32 4096 4096" "32 1024 8192"; do
  set -- $s
  echo "### $1x$2x$3"
  timeout 100 ncu --kill yes --cache-control none --clock-control none -c 6 -k regex:"stream|prepass" --metrics $M ./split/mxgemm_bench --m $1 --n $2 --k $3 --iters 20 2>&1 | grep -E "^  [a-z_]+.*\(|gpu__time|sm__cycles|dram__"
done > $OUT/ncu_durations.log 2>&1
grep -E "###|\(|gpu__time_duration" $OUT/ncu_durations.log | sed 's/  */ /g' | cut -c1-120
timeout 200 ncu --kill yes -k regex:stream_gemm --launch-skip 1 -c 1 --set full --import-source no -o $OUT/full32 ./split/mxgemm_bench --m 32 --n 4096 --k 4096 --iters 20 > /dev/null 2>&1; echo "ncu full rc=$?"
ncu -i $OUT/full32.ncu-rep > $OUT/full32_details.txt 2>&1
ncu -i $OUT/full32.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $OUT/full32_source.csv.gz
grep -E "stream_gemm|Duration|DRAM Throughput|Issue Slots|No Eligible|Active Warps Per|Eligible Warps|L2 Hit|Registers Per" $OUT/full32_details.txt | head -20
rm -f $OUT/full32.ncu-rep
for v in main split; do echo "### $v"; ./$v/mxgemm_bench --m 16,32,64 --n 1024,4096 --k 4096,8192 --iters 30; ./$v/mxgemm_bench --m 9,16,32,64 --n 1024,4096 --k 4096,8192 --iters 30 --mode weight-only; done > $OUT/sweep.log 2>&1
echo "== us: main split"
awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; key[i]=$1"x"$2"x"$3; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%-16s %7s %7s\n", key[i], t["main",i], t["split",i]}' $OUT/sweep.log
