#!/bin/bash
# Session 66, call 4: the thin last wave in stream-K as the library's choice (StreamSchedule::make's
# last_wave_stream_k: 256-row tiles, K 6144..12288, a last wave at most 60% full), against main.
# Built here (build-dev, nvcc 13, sm_90a): .device/s66/new_bench.xz, new_gpu_tests.xz
# (`cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests`, `xz -T2 -c`); main's
# build is call 2's .device/s66/exp_bench.xz without its switch. Carry [".device/s66/exp_bench.xz",
# ".device/s66/new_bench.xz", ".device/s66/new_gpu_tests.xz"].
# (T) the new build's GPU tests of the new thin-last-wave schedule and the large-M shapes, (A)
# main / new alternated on M = 2048 / 4096 / 8192 x N = 8192 / 28672 x K = 8192
# (four shapes change schedule, 2048 / 4096 x 8192^2 do not), weight-only, MXFP8, weight-only
# again, cut by BUDGET (little device time was left).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-220}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s66/exp_bench.xz > /tmp/main_bench && chmod +x /tmp/main_bench
xz -dc .device/s66/new_bench.xz > /tmp/new_bench && chmod +x /tmp/new_bench
xz -dc .device/s66/new_gpu_tests.xz > /tmp/new_tests && chmod +x /tmp/new_tests
limited 60 /tmp/new_tests --gtest_filter='*ThinLastWave*:GpuStreamGemm.LargeM*' > $L/tests.log 2>&1
stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $L/tests.log | tr '\n' ' ')"
ab() {  # ab MODE ROUND
  local v
  for v in main new; do
    limited 40 /tmp/${v}_bench --m 2048,4096,8192 --n 8192,28672 --k 8192 --iters 20 --mode $1 > $L/$1_${v}_r$2.log 2>&1
    stamp "$1 $v r$2 rc=$?"
  done
}
ab weight-only 1; ab mxfp8 1; ab weight-only 2
cd $OUT && tar czf logs.tgz logs
rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1" 2>/dev/null; }
echo "== weight-only: M N K | main r1 new r1 main r2 new r2 (us) | cuBLAS bf16 (main r1) | new r1 check"
paste <(rows logs/weight-only_main_r1.log shape) <(rows logs/weight-only_main_r1.log 5) <(rows logs/weight-only_new_r1.log 5) \
  <(rows logs/weight-only_main_r2.log 5) <(rows logs/weight-only_new_r2.log 5) <(rows logs/weight-only_main_r1.log 8) <(rows logs/weight-only_new_r1.log NF)
echo "== mxfp8: M N K | main new (us) | cuBLAS bf16 | new check"
paste <(rows logs/mxfp8_main_r1.log shape) <(rows logs/mxfp8_main_r1.log 5) <(rows logs/mxfp8_new_r1.log 5) <(rows logs/mxfp8_main_r1.log 8) <(rows logs/mxfp8_new_r1.log NF)
grep -h "ThinLastWave\|margin" logs/tests.log | head -8
cat logs/summary.txt
rm -rf logs
