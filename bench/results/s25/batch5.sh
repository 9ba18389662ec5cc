#!/usr/bin/env bash
# Session 25 batch 5: where the 256-row tiles' time goes at long K. ncu (clocks left alone) on
# one launch of the streaming kernel at weight-only 2048 x 8192 x 28672: warp states and the
# per-SASS-instruction stall samples, for h3 (committed) and np (BF16 never promoted, timing
# only). The source pages come back as CSV.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
for v in h3 np; do
  timeout 200 ncu --clock-control none --section WarpStateStats --section SourceCounters --section SpeedOfLight \
    -k regex:stream_gemm_sm90_kernel --launch-skip 4 --launch-count 1 -o $OUT/prof_$v \
    ./$v/mxgemm_bench --mode weight-only --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --warmup-ms 0 > $OUT/ncu_run_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu --import $OUT/prof_$v.ncu-rep --page details > $OUT/ncu_details_$v.log 2>&1
  ncu --import $OUT/prof_$v.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source_$v.csv 2>&1
  grep -E "Duration|SM Frequency|Warp Cycles Per Issued|Issued Warp|Stall|Compute \(SM\) Throughput|Memory Throughput" $OUT/ncu_details_$v.log | head -30
  wc -c $OUT/ncu_source_$v.csv
done
(cd $OUT && tar czf logs.tgz *.log *.csv && rm -f *.log *.csv)
