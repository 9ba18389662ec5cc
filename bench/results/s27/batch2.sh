#!/usr/bin/env bash
# Session 27 batch 2: the committed tree (the outside-window test fixed for the codes form at
# 3 rows, the BF16 block rescale of the codes pre-pass moved into bf16_block_to_codes): the
# whole GPU suite, memcheck of the FP16 weight-only tests, and the 1..16-row FP16 rows again.
cd .device/s27/c8c
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 330 ./mxgemm_gpu_tests > $OUT/logs/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/logs/gpu_tests.log | head -12
timeout 120 compute-sanitizer --tool memcheck ./mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.Fp16*:GpuWeightOnly.CodesForm*' > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/logs/memcheck.log | head -4
for mode in weight-only weight-only-fp16; do
  timeout 50 ./mxgemm_bench --mode $mode --m 1,4,8,16 --n 8192 --k 28672 --iters 30 >> $OUT/logs/small_$mode.log 2>&1 || echo "$mode rc=$?"
done
for mode in weight-only weight-only-fp16; do echo "== $mode (us / x floor / check)"
  awk '$4=="|" && $1+0>0 {printf "%sx%sx%s %s/%s %s\n", $1,$2,$3,$5,$25,$NF}' $OUT/logs/small_$mode.log
done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
