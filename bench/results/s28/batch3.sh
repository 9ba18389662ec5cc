#!/usr/bin/env bash
# Session 28 batch 3: where the fp16 form of MXFP8 activations should run. The mid suite twice
# and 2048/4096 x 8192 x {8192, 28672}, against the bf16 form in the same call
# (--compare-kernel bf16-values), sustained; then ncu (clocks left alone) of one launch of the
# fp16 form at 32 and 64 x 28672 x 8192 (stall reasons, pipes), per-SASS stall samples in
# ncu_source_<shape>.csv.
cd .device/s28/${BIN:-c2}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
for round in 1 2; do
  timeout 60 ./mxgemm_bench --suite mid --compare-kernel bf16-values --iters 20 > $OUT/logs/mid_$round.log 2>&1 || echo "mid rc=$?"
done
timeout 90 ./mxgemm_bench --m 2048,4096 --n 8192 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/large4.log 2>&1 || echo "large rc=$?"
prof() { local name=$1; shift
  timeout 120 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active \
    -k regex:stream_gemm_sm90_kernel --launch-skip 3 --launch-count 1 -o $OUT/logs/prof_$name \
    ./mxgemm_bench "$@" --iters 20 --warmup 1 --warmup-ms 0 > $OUT/logs/ncu_run_$name.log 2>&1
  echo "ncu $name rc=$?"
  ncu --import $OUT/logs/prof_$name.ncu-rep --page source --csv --print-source sass > $OUT/logs/ncu_source_$name.csv 2>&1
  ncu --import $OUT/logs/prof_$name.ncu-rep --page details > $OUT/logs/ncu_details_$name.log 2>&1
  grep -E "Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Issue Slots Busy|No Eligible|hmma|issue_active|Registers Per" $OUT/logs/ncu_details_$name.log | head -12
}
prof mx32 --m 32 --n 28672 --k 8192
prof mx64 --m 64 --n 28672 --k 8192
for f in mid_1 mid_2 large4; do echo "== $f: M N K fp16 form us / bf16 form us (ratio) x cuBLAS bf16"
  awk '$4=="|" && $1+0>16 {printf "%sx%sx%s %s/%s(%s) %s | ", $1,$2,$3,$5,$20,$22,$10} END{print ""}' $OUT/logs/$f.log
done
cd $OUT && rm -f logs/*.ncu-rep && tar czf logs.tgz logs && rm -rf logs
