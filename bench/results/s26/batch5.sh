#!/usr/bin/env bash
# Session 26 batch 5: the fp16 values form (weight-only FP16 activations), built from the
# working tree (.device/s26/f16/). The GPU suite; memcheck of the new FP16 tests; then
# weight-only with bf16 activations (the bf16 values form) against fp16 ones (the fp16 form),
# same binary, same values, sustained, two rounds interleaved.
cd .device/s26/f16
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 240 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/logs/gpu_tests.log | head -12
timeout 150 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Fp16*' > $OUT/logs/memcheck.log 2>&1
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -5
run() { local name=$1; shift; timeout 60 ./mxgemm_bench "$@" >> $OUT/logs/$name.log 2>&1 || echo "$name rc=$?" >> $OUT/logs/rc.log; }
for r in 1 2; do for mode in weight-only weight-only-fp16; do
  run "d28_$mode" --mode $mode --m 1,16,32,64 --n 28672 --k 8192 --iters 30
  run "d8_$mode" --mode $mode --m 16,32,64 --n 8192 --k 28672 --iters 30
  run "mid_$mode" --mode $mode --m 128,256 --n 8192 --k 8192 --iters 30
  run "large_$mode" --mode $mode --m 4096 --n 8192 --k 8192 --iters 20
  run "long_$mode" --mode $mode --m 2048 --n 8192 --k 28672 --iters 20
done; done
echo "== shape: bf16 activations | fp16 activations: us / vs cuBLAS bf16 / x floor / check (two rounds)"
for s in d28 d8 mid large long; do for mode in weight-only weight-only-fp16; do
  awk -v t="$s $mode" '$4=="|" && $1+0>0 {print t, $1"x"$2"x"$3, $5"/"$10"/"$25, $NF}' $OUT/logs/${s}_$mode.log
done; done
cat $OUT/logs/rc.log 2>/dev/null
cd $OUT && tar czf logs.tgz logs && rm -rf logs
