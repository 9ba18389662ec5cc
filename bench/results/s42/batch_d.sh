#!/bin/bash
# Session 42 call D (the last of the session's device time: written to stop early and keep what
# it has): m42 (main) against m192 (branch s42-m192: 129..192 rows in a 192-row tile), MXFP8
# and weight-only, 129 / 160 / 192 x 8192 x 8192, one round each; then m192's tests that reach
# the 192-row tile. Carry [".device/s42/m42", ".device/s42/m192"].
set -u
L=$OUT/logs; mkdir -p $L
for v in m42 m192; do xz -dc .device/s42/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s42/m192/mxgemm_gpu_tests.xz > /tmp/gpu_tests_m192 && chmod +x /tmp/gpu_tests_m192
row() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $16, $NF}' "$1"; }
for mode in mxfp8 weight-only; do for v in m42 m192; do
  timeout 20 /tmp/bench_$v --m 129,160,192 --n 8192 --k 8192 --iters 20 --mode $mode > $L/T_${mode}_$v.log 2>&1
  echo "== $mode $v (M N K us cuBLAS-bf16 fp8 check)" >> $OUT/summary.txt; row $L/T_${mode}_$v.log >> $OUT/summary.txt
done; done
timeout 150 /tmp/gpu_tests_m192 --gtest_filter='GpuStreamGemm.WholeTilesOf192*:GpuStreamGemm.StaleRows*:GpuStreamGemm.HalvesOfTheK*:GpuStreamGemm.SplitTilesSum*:GpuStreamGemm.WideTiles*:GpuWeightOnly.*:GpuGemm.*' > $L/tests_m192.log 2>&1
echo "tests m192 rc=$?" >> $OUT/summary.txt
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|^\[       OK" $L/tests_m192.log | tail -30 >> $OUT/summary.txt
cat $OUT/summary.txt
