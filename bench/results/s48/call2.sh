#!/bin/bash
# Session 48, device call 2: where a large-M tile's time goes. The trace build of main adb41da
# (cmake -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE, build-trace/apps/mxgemm_bench; MXGEMM_TRACE=1
# prints one line a launch: per-CTA min/median/max of each stamp, the summed epilogue time
# epi_ns, the SM clock and cycles a stage) on the large shapes of issues #7 / #3, then the plain
# binary on the same shapes. Carry [".device/s48"]. Other builds and shapes (session 65's call4.sh):
# PLAIN_XZ, TRACE_XZ (the binaries' .xz) and SHAPES ("M N K" entries, `;`-separated).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-500}
: > $L/summary.txt
B=/tmp/bench T=/tmp/bench_trace
xz -dc ${PLAIN_XZ:-.device/s48/mxgemm_bench.xz} > $B && chmod +x $B
xz -dc ${TRACE_XZ:-.device/s48/mxgemm_bench_trace.xz} > $T && chmod +x $T
IFS=";" read -ra shapes <<< "${SHAPES:-2048 8192 8192;4096 8192 8192;2048 8192 28672;2048 4096 4096;256 8192 8192}"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for mode in weight-only mxfp8; do
  for s in "${shapes[@]}"; do
    set -- $s
    MXGEMM_TRACE=1 limited 40 $T --m $1 --n $2 --k $3 --iters 20 --mode $mode > $L/trace_${mode}_$1_$2_$3.log 2>&1
    stamp "trace $mode $s rc=$?"
  done
done
limited 60 $B --m 2048,4096 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/plain_wo.log 2>&1; stamp "plain wo rc=$?"
limited 60 $B --m 2048 --n 8192 --k 28672 --iters 20 --mode weight-only > $L/plain_wo_k.log 2>&1; stamp "plain wo k rc=$?"
cd $OUT && tar czf logs.tgz logs
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the last:"
  grep '^TRACE' $f | tail -1 | tr '|' '\n' | grep -E "TRACE|first_stage|first_loop_end|first_stored|last_loop_end| end|stages|wait_ns|epi_ns|prestore|MHz|cyc" | tr '\n' '|'; echo
done
for f in plain_wo plain_wo_k; do
  awk -F'|' '$1 ~ /^ *[0-9]+ +[0-9]+ +[0-9]+ *$/ {print $1 "|" $2 "|" $3}' logs/$f.log
done
cat logs/summary.txt
rm -rf logs
