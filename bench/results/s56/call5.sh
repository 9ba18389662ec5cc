#!/bin/bash
# Session 56, call 5: where M = 128's time goes (issue #3). The trace build of main 8227abd
# (cmake -S . -B build-trace -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a
# -DMXGEMM_SM100=OFF -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE; target mxgemm_bench;
# MXGEMM_TRACE=1 prints one line a launch: per-CTA min/median/max of each stamp in us from the
# first start of the pre-pass or kernel, waits, the summed epilogue, SM clock, cycles a stage) at
# 128 and 256 x 8192^2, both modes; then the plain bench on the same shapes. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s56/mxgemm_bench.xz > /tmp/b && chmod +x /tmp/b
xz -dc .device/s56/mxgemm_bench_trace.xz > /tmp/t && chmod +x /tmp/t
for mode in mxfp8 weight-only; do
  for m in 128 256; do
    MXGEMM_TRACE=1 limited 30 /tmp/t --m $m --n 8192 --k 8192 --iters 20 --mode $mode > $L/trace_${mode}_$m.log 2>&1
    stamp "trace $mode $m rc=$?"
  done
  limited 30 /tmp/b --m 128,256 --n 8192 --k 8192 --iters 20 --mode $mode > $L/plain_$mode.log 2>&1; stamp "plain $mode rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the last:"
  grep '^TRACE' $f | tail -1 | tr '|' '\n' | sed 's/^ *//' | tr '\n' '|'; echo
done
grep -hE "^ +(128|256) +8192" logs/plain_*.log
cat logs/summary.txt
rm -rf logs
