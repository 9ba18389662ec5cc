#!/usr/bin/env bash
# Session 27 batch 1: FP16 activations of up to 8 rows through the codes form (s26's
# fp16_codes_form_up_to_8_rows.patch on main). The whole GPU suite, memcheck of the FP16
# weight-only tests, then bf16 against fp16 activations at 1..16 rows, same binary, same
# values, sustained.
cd .device/s27/c8
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 330 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/logs/gpu_tests.log | head -12
timeout 120 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Fp16*' > $OUT/logs/memcheck_fp16.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck_fp16.log | head -4
for mode in weight-only weight-only-fp16; do
  for nk in "8192 28672" "28672 8192" "8192 8192"; do set -- $nk
    timeout 50 ./mxgemm_bench --mode $mode --m 1,2,4,8,16 --n $1 --k $2 --iters 30 --warmup-ms 300 >> $OUT/logs/small_$mode.log 2>&1 || echo "$mode $nk rc=$?"
  done
done
for mode in weight-only weight-only-fp16; do echo "== $mode (us / x floor / check)"
  awk '$4=="|" && $1+0>0 {printf "%sx%sx%s %s/%s %s\n", $1,$2,$3,$5,$25,$NF}' $OUT/logs/small_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
