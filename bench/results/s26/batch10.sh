#!/usr/bin/env bash
# Session 26 batch 10: FP16 activations of up to 8 rows through the codes form (their
# pre-pass writes them as they are at scale 1). The weight-only GPU tests, then bf16 against
# fp16 activations at 1..8 rows, same binary, same values, sustained.
cd .device/s26/c8
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 100 ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.*' > $OUT/logs/gpu_tests_wo.log 2>&1; echo "weight-only tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/logs/gpu_tests_wo.log | head -8
for mode in weight-only weight-only-fp16; do
  for nk in "8192 28672"; do set -- $nk
    timeout 50 ./mxgemm_bench --mode $mode --m 1,2,4,8,16 --n $1 --k $2 --iters 30 >> $OUT/logs/small_$mode.log 2>&1 || echo "$mode $nk rc=$?"
  done
done
for mode in weight-only weight-only-fp16; do echo "== $mode (us / x floor)"
  awk '$4=="|" && $1+0>0 {printf "%sx%sx%s %s/%s %s\n", $1,$2,$3,$5,$25,$NF}' $OUT/logs/small_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
