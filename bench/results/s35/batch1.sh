#!/bin/bash
# Session 35 b1: main (c0 = 616e08f) on the device: the GPU test suite, every bench suite in
# both modes (sustained, the bench's default), and two small-weight questions:
#  - weight-only 9..16 rows on weights of 2^24 elements or less on the skinny kernel (v1 =
#    c0 + skinny_weight_only_16_rows.patch) against the streaming kernel (c0), two rounds;
#  - per-kernel durations (ncu) of the 32- and 64-row shapes on 8 and 16 MB weights, where
#    mxgemm trails cuBLAS bf16 (pre-pass, streaming kernel, split reduction).
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 v1; do xz -dc .device/s35/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s35/c0/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $L/gpu.log 2>&1
which nsys ncu >> $L/gpu.log 2>&1
T0=$(date +%s)
timeout 200 /tmp/gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
for s in decode mid large; do
  it=20; [ $s = decode ] && it=30
  timeout 150 /tmp/bench_c0 --suite $s --iters $it > $L/${s}_mx.log 2>&1; echo "${s}_mx rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
  timeout 150 /tmp/bench_c0 --mode weight-only --suite $s --iters $it > $L/${s}_wo.log 2>&1; echo "${s}_wo rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
done
SW="--mode weight-only --m 9,12,16 --n 4096,1024 --k 4096,8192 --iters 30"
for round in 1 2; do for v in c0 v1; do
  timeout 100 /tmp/bench_$v $SW > $L/sw_${v}_r$round.log 2>&1
done; done
echo "small rc $(( $(date +%s) - T0 )) s" >> $L/marks.log
for mode in mxfp8 weight-only; do for shape in "64 1024 8192" "32 4096 4096" "64 4096 4096" "16 1024 8192"; do
  set -- $shape
  timeout 60 ncu -k regex:"stream|reduce|prepass|skinny|activation" --launch-skip 6 --launch-count 9 \
    --metrics gpu__time_duration.sum /tmp/bench_c0 --mode $mode --m $1 --n $2 --k $3 --iters 20 --warmup-ms 0 --warmup 1 \
    > $L/ncu_${mode}_$1_$2_$3.log 2>&1
done; done
echo "ncu done $(( $(date +%s) - T0 )) s" >> $L/marks.log
cd $OUT && tar czf logs.tgz logs
cat logs/gpu.log; cat logs/marks.log
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" logs/gpu_tests.log | tail -5
for f in decode_mx decode_wo mid_mx mid_wo large_mx large_wo; do
  echo "== $f: $(grep -E '^  vs cuBLAS bf16 ' logs/$f.log | tr -s ' ') | $(grep -E '^  vs cuBLASLt fp8 ' logs/$f.log | tr -s ' ') | $(grep -E 'all checks passed|FAIL' logs/$f.log | tail -1)"
done
echo "small weights, weight-only: M N K | c0 r1, v1 r1, c0 r2, v1 r2 us | cuBLAS bf16 us (c0 r1)"
paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/sw_c0_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/sw_v1_r1.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/sw_c0_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/sw_v1_r2.log) \
      <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8}' logs/sw_c0_r1.log)
grep -h "all checks passed\|FAIL" logs/sw_*.log | sort | uniq -c
for f in logs/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $f | sed 's/(int, int, int)//' | cut -c1-150 | paste - - | awk '{print substr($0,1,90), $NF}' | head -12; done
rm -rf logs
