#!/usr/bin/env bash
# Session 26 batch 2: where the small- and mid-M forms spend their time. ncu (clocks left
# alone) of one launch of the committed build (h) at weight-only 32 x 28672 x 8192 (4
# warpgroups, 256-row weight tiles), 64 x 28672 x 8192 (2 warpgroups, 128-row tiles) and
# 128 x 8192 x 8192; per-SASS stall samples in ncu_source_<shape>.csv. Logs tarred (the tool
# returns a limited count of files).
cd .device/s26
for f in h/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
prof() { local name=$1; shift
  timeout 150 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__cycles_active.avg,smsp__cycles_active.avg,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active \
    -k regex:stream_gemm_sm90_kernel --launch-skip 3 --launch-count 1 -o $OUT/logs/prof_$name \
    ./h/mxgemm_bench "$@" --iters 20 --warmup 1 --warmup-ms 0 > $OUT/logs/ncu_run_$name.log 2>&1
  echo "ncu $name rc=$?"
  ncu --import $OUT/logs/prof_$name.ncu-rep --page source --csv --print-source sass > $OUT/logs/ncu_source_$name.csv 2>&1
  ncu --import $OUT/logs/prof_$name.ncu-rep --page details > $OUT/logs/ncu_details_$name.log 2>&1
  grep -E "Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|dram__bytes|hmma|issue_active|Registers Per" $OUT/logs/ncu_details_$name.log | head -14
}
prof wo32 --mode weight-only --m 32 --n 28672 --k 8192
prof wo64 --mode weight-only --m 64 --n 28672 --k 8192
prof wo128 --mode weight-only --m 128 --n 8192 --k 8192
for s in "32 28672 8192" "64 28672 8192" "128 8192 8192"; do set -- $s
  timeout 60 ./h/mxgemm_bench --mode weight-only --m $1 --n $2 --k $3 --iters 30 >> $OUT/logs/time_wo.log 2>&1
done
awk '$4=="|" && $1+0>0 {print $1,$2,$3, $5"us", $10, "floor x"$25}' $OUT/logs/time_wo.log
cd $OUT && rm -f logs/*.ncu-rep && tar czf logs.tgz logs && rm -rf logs
