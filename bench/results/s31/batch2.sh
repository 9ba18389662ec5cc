#!/usr/bin/env bash
# Session 31 batch 2: BF16 activations of 17..1024 rows on E4M3 weights in the fp16 values form
# (launch_activation_f16_rows_prepass + the permuted fp16 instances), s31/c3. Its GPU suite,
# memcheck of the new tests, then weight-only timings against the bf16 values form in the same
# binary and call (--compare-kernel bf16-values forces StreamMxValues::Bf16: the old path).
B=.device/s31/${BIN:-c3}
(cd $B && for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done)
mkdir -p $OUT/logs
timeout 300 $B/mxgemm_gpu_tests > $OUT/logs/gpu.log 2>&1; echo "gpu rc=$?"; tail -3 $OUT/logs/gpu.log
grep -E "^\[  FAILED|Bf16Activations.*margin|bf16 form's" $OUT/logs/gpu.log | head -20
timeout 200 compute-sanitizer --tool memcheck $B/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Bf16*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/logs/memcheck.log
for r in 1 2; do
  timeout 150 $B/mxgemm_bench --mode weight-only --m 17,32,64,128,256,512,1024 --n 8192,28672 --k 8192 --compare-kernel bf16-values --iters 20 > $OUT/logs/wo_r$r.log 2>&1 || echo "wo r$r rc=$?"
  timeout 100 $B/mxgemm_bench --mode weight-only --m 64,256 --n 8192 --k 28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/wok_r$r.log 2>&1 || echo "wok r$r rc=$?"
done
echo "== tag: M N K | f16 form us [x cuBLAS bf16] | bf16 form us [x] | x floor"
for f in $OUT/logs/wo*.log; do
  awk -v t=$(basename $f .log) '$4=="|" && $1+0>8 {printf "%s %sx%sx%s %s [%s] | %s [%s] | %s\n", t,$1,$2,$3,$5,$10,$20,$22,$25}' $f
done | sort -k2,2 -k1,1
cd $OUT && tar czf logs.tgz logs && rm -rf logs
