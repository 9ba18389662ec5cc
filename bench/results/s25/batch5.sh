#!/usr/bin/env bash
# Session 25 batch 5: (1) h3 = 0fcbcaa (committed) / nf = h3 without the fence before the
# promotion slot's read-back (readback_without_fence.patch), sustained, two rounds; (2) where
# the 256-row tiles' time goes at long K: ncu (clocks left alone) on one launch of the
# streaming kernel at weight-only 2048 x 8192 x 28672, warp states, DRAM bytes and the
# per-SASS-instruction stall samples, for h3 and np (BF16 never promoted, timing only).
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h3 nf; do
  run wo28 $v --mode weight-only --m 2048 --n 8192 --k 28672
  run mx28 $v --m 2048 --n 8192 --k 28672
  run f32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
done; done
echo "== shape: variant us/vs-bf16 (two rounds)"
for s in wo28 mx28 f32; do for v in h3 nf; do
  awk -v t="$s $v" '$4=="|" && $1+0>0 {a=a" "$5"/"$10} END{print t, a}' $OUT/${s}_$v.log
done; done
for v in h3 np; do
  timeout 150 ncu --clock-control none --section WarpStateStats --section SourceCounters --section SpeedOfLight \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg.per_second \
    -k regex:stream_gemm_sm90_kernel --launch-skip 4 --launch-count 1 -o $OUT/prof_$v \
    ./$v/mxgemm_bench --mode weight-only --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --warmup-ms 0 > $OUT/ncu_run_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu --import $OUT/prof_$v.ncu-rep --page details > $OUT/ncu_details_$v.log 2>&1
  ncu --import $OUT/prof_$v.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source_$v.csv 2>&1
  grep -E "dram__bytes|lts__t_sector_hit|sm__cycles_elapsed|Duration|Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput" $OUT/ncu_details_$v.log | head -12
  wc -c $OUT/ncu_source_$v.csv
done
(cd $OUT && tar czf logs.tgz *.log *.csv && rm -f *.log *.csv)
