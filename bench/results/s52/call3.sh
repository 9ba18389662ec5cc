#!/bin/bash
# Session 52, call 3: session 51's prepared script, run as it stands (binaries in .device/next,
# built in session 51; carry [".device/next"]).
# Session 51, call 5 (prepared, not run): bf16_permuted.patch, an experiment for #4 / #7's
# weight-only 17..64 rows. BF16 activations of more than 16 rows copied into the permuted K order
# (a bit-for-bit copy, launch_activation_bf16_permuted_prepass) so that the bf16 values form
# loads each weight row's fragment of a 32-block in one 8-byte load instead of four 2-byte ones,
# forced by --mx-values bf16-permuted. Session 50's H200 call 2 had MXFP8 (whose pre-pass writes
# the permuted order) about 5 us ahead of weight-only at 32 x 8192 x 28672 (70.8-71.2 against
# 75.6-76.9 us). Build: git apply bench/results/s51/bf16_permuted.patch on main, build-dev,
# xz the bench and the GPU tests into .device/next/mxgemm_bench_perm.xz / mxgemm_gpu_tests_perm.xz.
# First the patch's GPU test and the weight-only and fp16-form tests it touches (the fp16 form's
# pre-pass shares the new load/store helpers), then auto / bf16-permuted / bf16, alternated, two
# rounds; wants the H200 (say which GPU ran it).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
unpack mxgemm_bench_perm mxgemm_gpu_tests_perm
nvidia-smi --query-gpu=name --format=csv,noheader > $L/smi.log 2>&1
limited 150 /tmp/mxgemm_gpu_tests_perm --gtest_filter='GpuWeightOnly.*:GpuStreamFp16Form*' > $L/tests.log 2>&1; stamp "tests rc=$?"
B=/tmp/mxgemm_bench_perm
for r in 1 2; do
  for v in auto bf16-permuted bf16; do
    limited 40 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
    stamp "values $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" logs/tests.log | tail -6
table P auto bf16-permuted bf16
cat logs/summary.txt
rm -rf logs
