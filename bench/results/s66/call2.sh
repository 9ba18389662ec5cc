#!/bin/bash
# Session 66, call 2: the last wave's tiles cut into stream-K ranges (a spike, not main).
# The trace (call 1) showed every large-suite CTA with a whole tile more than others: 2^k tiles
# on 132 SMs leave the last wave 3-94% full, and the schedule deals it whole (its longest CTA
# within 1.10 of even), so 13 of the 16 large shapes run 3.1% over an even split. The spike
# (tail_stream_k.patch, main's launcher plus an environment switch MXGEMM_EXP_TAIL_SK=P: the
# whole waves whole, the partial wave's tiles in stream-K ranges over all the CTAs, P = 0 plain,
# P > 1 in chunks of K / P) is built here: `cmake --build build-dev -j2 --target mxgemm_bench
# mxgemm_gpu_tests` (main 871c9be's kernels, only stream_gemm_sm90.cu changed), `xz -T2 -c` into
# .device/s66/exp_bench.xz, exp_gpu_tests.xz. Carry [".device/s66"].
# (T) the stream-kernel GPU tests with the switch on (P = 0), then the large weight-only suite
# alternated auto / P=0 / P=8, two rounds, then MXFP8 large auto / P=0, cut by BUDGET.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s66/exp_bench.xz > /tmp/bench && chmod +x /tmp/bench
xz -dc .device/s66/exp_gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
MXGEMM_EXP_TAIL_SK=0 limited 120 /tmp/tests --gtest_filter='GpuStreamGemm.*:GpuWeightOnly.*' > $L/tests_p0.log 2>&1
stamp "stream tests P=0 rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests_p0.log | tr '\n' ' ')"
suite() {  # suite MODE VARIANT ROUND
  local mode=$1 v=$2 r=$3
  if [ $v = auto ]; then
    limited 60 /tmp/bench --suite large --iters 20 --mode $mode > $L/${mode}_${v}_r$r.log 2>&1
  else
    MXGEMM_EXP_TAIL_SK=${v#p} limited 60 /tmp/bench --suite large --iters 20 --mode $mode > $L/${mode}_${v}_r$r.log 2>&1
  fi
  stamp "$mode $v r$r rc=$?"
}
for r in 1 2; do for v in auto p0 p8; do suite weight-only $v $r; done; done
for v in auto p0; do suite mxfp8 $v 1; done
cd $OUT && tar czf logs.tgz logs
for mode in weight-only mxfp8; do
  for f in logs/${mode}_*.log; do
    grep -q "geometric mean" $f || continue
    echo "== $f: $(grep -A1 'geometric mean' $f | tail -1 | head -c 160) $(grep -cE ' ok$' $f) ok"
  done
done
echo "== weight-only: M N K | auto r1 p0 r1 p8 r1 auto r2 p0 r2 p8 r2 (us) | cuBLAS bf16 auto r1"
rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : $c}' "$1" 2>/dev/null; }
paste <(rows logs/weight-only_auto_r1.log shape) <(rows logs/weight-only_auto_r1.log 5) <(rows logs/weight-only_p0_r1.log 5) \
  <(rows logs/weight-only_p8_r1.log 5) <(rows logs/weight-only_auto_r2.log 5) <(rows logs/weight-only_p0_r2.log 5) \
  <(rows logs/weight-only_p8_r2.log 5) <(rows logs/weight-only_auto_r1.log 8)
echo "== mxfp8: M N K | auto p0 (us) | cuBLAS bf16"
paste <(rows logs/mxfp8_auto_r1.log shape) <(rows logs/mxfp8_auto_r1.log 5) <(rows logs/mxfp8_p0_r1.log 5) <(rows logs/mxfp8_auto_r1.log 8)
cat logs/summary.txt
rm -rf logs
