#!/bin/bash
# Session 42 call C: m42 (main with the wide boxes and two_warpgroup_fill_preferred, kernels
# byte-identical to m41w's, whose full suite passed in call A): its GEMM GPU tests (the device
# was scarce: the quantizer sweep left out); m41w against m42 (Auto both) on set E, MXFP8,
# two rounds; weight-only set E, Auto against the forced split (BF16 rows keep the stream-K);
# one round of wide part tiles, M 128..256 on 8192^2, both modes.
# Carry [".device/s42/m41w", ".device/s42/m42"]. BUDGET (s, default 250) bounds it.
set -u
L=$OUT/logs; mkdir -p $L
BUDGET=${BUDGET:-250}
source "$(dirname "$0")/../s39/common.sh"  # limited (under BUDGET), stamp, table
for v in m41w m42; do
  xz -dc .device/s42/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v
done
xz -dc .device/s42/m42/mxgemm_gpu_tests.xz > /tmp/gpu_tests_m42 && chmod +x /tmp/gpu_tests_m42
limited 130 /tmp/gpu_tests_m42 --gtest_filter='GpuGemm.*:GpuStream*:GpuSkinny*:GpuWeightOnly.*:GpuWorkspace.*' > $L/gpu_suite_m42.log 2>&1; stamp "gpu suite m42 rc=$?"
E="--m 48,64 --n 8192 --k 4096,8192,12288 --iters 30"
for r in 1 2; do for v in m41w m42; do
  limited 25 /tmp/bench_$v $E > $L/E_${v}_r$r.log 2>&1; stamp "E $v r$r rc=$?"
done; done
limited 25 /tmp/bench_m42 $E --mode weight-only > $L/W_auto_r1.log 2>&1; stamp "W auto rc=$?"
limited 25 /tmp/bench_m42 $E --mode weight-only --split-k always > $L/W_always_r1.log 2>&1; stamp "W always rc=$?"
for mode in mxfp8 weight-only; do
  limited 30 /tmp/bench_m42 --m 128,129,160,192,224,256 --n 8192 --k 8192 --iters 20 --mode $mode > $L/T_$mode.log 2>&1
  stamp "T $mode rc=$?"
done
cd $OUT && tar czf logs_c.tgz logs
table E m41w m42
for f in W_auto W_always; do echo "== $f"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $16, $NF}' logs/${f}_r1.log; done
for mode in mxfp8 weight-only; do echo "== T $mode: M N K mxgemm cuBLAS-bf16 fp8 check"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $16, $NF}' logs/T_$mode.log; done
echo "== gpu_suite_m42"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/gpu_suite_m42.log | tail -6
cat logs/summary.txt
rm -rf logs
