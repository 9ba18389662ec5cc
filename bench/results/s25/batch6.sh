#!/usr/bin/env bash
# Session 25 batch 6: h3 = 2696fd7's library (committed) / nf2 = h3 with the promotion slot
# read back by ld.relaxed.gpu and no fence before it (readback_relaxed_no_fence.patch):
# sustained, two rounds, on shapes that promote; then the GPU suite on nf2; then ncu of h3.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h3 nf2; do
  run wo28 $v --mode weight-only --m 2048 --n 8192 --k 28672
  run mx28 $v --m 2048 --n 8192 --k 28672
  run f32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
done; done
echo "== shape: variant us/vs-bf16 (two rounds)"
for s in wo28 mx28 f32; do for v in h3 nf2; do
  awk -v t="$s $v" '$4=="|" && $1+0>0 {a=a" "$5"/"$10} END{print t, a}' $OUT/${s}_$v.log
done; done
timeout 200 ./nf2/mxgemm_gpu_tests > $OUT/gpu_tests_nf2.log 2>&1; echo "gpu tests nf2 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_nf2.log | head -8
grep -i "margin" $OUT/gpu_tests_nf2.log | grep "first 32" | head -12
timeout 90 ncu --clock-control none --section WarpStateStats --section SourceCounters --section SpeedOfLight \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
  -k regex:stream_gemm_sm90_kernel --launch-skip 4 --launch-count 1 -o $OUT/prof_h3 \
  ./h3/mxgemm_bench --mode weight-only --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --warmup-ms 0 > $OUT/ncu_run_h3.log 2>&1
echo "ncu h3 rc=$?"
ncu --import $OUT/prof_h3.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source_h3.csv 2>&1
ncu --import $OUT/prof_h3.ncu-rep --page details > $OUT/ncu_details_h3.log 2>&1
grep -E "dram__bytes|lts__t_sector_hit|Duration|Warp Cycles Per Issued" $OUT/ncu_details_h3.log | head -8
