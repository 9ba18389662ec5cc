#!/bin/bash
# Session 48, device call 3. (1) The GPU suite and memcheck on the change "the MXFP8 store's row
# scales in batches, the exact-row mark before the mainloop" (build-dev at the working tree:
# .device/s48/*_fix.xz). (2) That change against main adb41da (mxgemm_bench.xz), alternated, two
# rounds, MXFP8. (3) Timing-only ablations of the operand loads (ablate_loads.patch, trace builds:
# MXGEMM_ABLATE_LOADS=1 the activation's loads skipped once the ring is full, 2 the weight's),
# against the trace build of main. Carry [".device/s48"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_fix mxgemm_bench_trace mxgemm_bench_abl1 mxgemm_bench_abl2 mxgemm_gpu_tests_fix; do
  xz -dc .device/s48/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 240 /tmp/mxgemm_gpu_tests_fix > $L/tests.log 2>&1; stamp "GPU suite rc=$?"
limited 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/mxgemm_gpu_tests_fix \
  --gtest_filter='GpuStreamFp16Form.RowsBeyond*:GpuStreamGemm.WholeTilesOf192*' > $L/memcheck.log 2>&1; stamp "memcheck rc=$?"
S="--m 128,256,2048,4096 --n 8192 --k 8192 --iters 20"
for r in 1 2; do
  for v in head fix; do
    b=/tmp/mxgemm_bench; [ $v = fix ] && b=/tmp/mxgemm_bench_fix
    limited 40 $b $S > $L/S_${v}_r$r.log 2>&1; stamp "S $v r$r rc=$?"
    limited 25 $b --m 2048 --n 8192 --k 28672 --iters 20 > $L/K_${v}_r$r.log 2>&1; stamp "K $v r$r rc=$?"
  done
done
for v in trace abl1 abl2; do
  for s in "weight-only 4096 8192 8192" "weight-only 2048 8192 28672" "mxfp8 4096 8192 8192"; do
    set -- $s
    MXGEMM_TRACE=1 limited 30 /tmp/mxgemm_bench_$v --mode $1 --m $2 --n $3 --k $4 --iters 20 > $L/A_${v}_$1_$2_$4.log 2>&1
    stamp "ablation $v $s rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests.log | tail -8
echo "== memcheck"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED) " logs/memcheck.log | tail -3
table S head fix
table K head fix
for f in logs/A_*.log; do
  echo "== $f: $(grep '^TRACE' $f | tail -1 | tr '|' '\n' | grep -E "last_loop_end| end|wait_ns|epi_ns|cyc" | tr '\n' '|')"
  awk -F'|' '$1 ~ /^ *[0-9]+ +[0-9]+ +[0-9]+ *$/ {print "   bench: " $1 "|" $2}' $f
done
cat logs/summary.txt
rm -rf logs
