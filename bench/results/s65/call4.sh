#!/bin/bash
# Session 65, for the next device session (not run): where a large-M tile's time goes now, on
# main's kernels, as session 48's call 2 measured it before the TMA store (e3f1f70) and the
# store's buffers (bd5e775). Session 48 (H100): at weight-only 4096 x 8192^2 the epilogue (mainloop
# end to store end) was 24.0 us of a 693 us CTA span (3.5%), late stages 10.7%. If the epilogue
# is still ~2-3% at K = 8192 (more at K = 4096), the lead for issue #7 is an epilogue overlapped
# with the other math warpgroup's mainloop (each warpgroup storing its own 64-column box, its own
# barriers; the 256-row tile's ring of 4 stages of 64 K leaves up to 3 of slack); if it is under 1%,
# that lead is dead. Built here: `cmake -S . -B build-trace -DCMAKE_CUDA_ARCHITECTURES=90a
# -DMXGEMM_SM100=OFF -DMXGEMM_BUILD_TESTS=OFF -DMXGEMM_BUILD_SPIKES=OFF
# -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE`, `cmake --build build-trace -j2 --target mxgemm_bench`,
# `xz -T2 -c` into .device/s65/mxgemm_bench_trace.xz (main 228e742's kernels).
# Carry [".device/s65/mxgemm_bench_trace.xz", ".device/s64/mxgemm_bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
B=/tmp/bench T=/tmp/bench_trace
xz -dc .device/s64/mxgemm_bench.xz > $B && chmod +x $B
xz -dc .device/s65/mxgemm_bench_trace.xz > $T && chmod +x $T
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for mode in weight-only mxfp8; do
  for s in "2048 8192 8192" "4096 8192 8192" "8192 4096 4096" "2048 28672 8192" "2048 8192 28672"; do
    set -- $s
    MXGEMM_TRACE=1 limited 30 $T --m $1 --n $2 --k $3 --iters 20 --mode $mode > $L/trace_${mode}_$1_$2_$3.log 2>&1
    stamp "trace $mode $s rc=$?"
  done
done
limited 60 $B --m 2048,4096 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/plain_wo.log 2>&1; stamp "plain wo rc=$?"
cd $OUT && tar czf logs.tgz logs
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the last:"
  grep '^TRACE' $f | tail -1 | tr '|' '\n' | grep -E "TRACE|first_stage|last_loop_end| end|stages|wait_ns|epi_ns|prestore|MHz|cyc" | tr '\n' '|'; echo
done
awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $10}' logs/plain_wo.log
cat logs/summary.txt
rm -rf logs
