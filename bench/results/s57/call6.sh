#!/bin/bash
# Session 57, call 6: warp 1 reads one word of every 64-byte line of the kernel's parameters
# before the CTA's first barrier, so that the producer's first work item finds them in the
# constant cache (.device/s57e: main + that change, build-dev; the trace build of the same tree in
# .device/s57e/mxgemm_bench_trace.xz) against main (.device/s57), two rounds alternated; then the
# GPU suite of the new build, then its trace at 128 x 8192^2 (session 56's call 5 has main's on an
# H100: first work item ready 3.5 us MXFP8, 1.3 weight-only). Carry [".device/s57", ".device/s57e"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-255}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s57/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
xz -dc .device/s57e/mxgemm_bench.xz > /tmp/warm && chmod +x /tmp/warm
for r in 1 2; do
  for v in main warm; do
    limited 20 /tmp/$v --m 1,16,128,256 --n 8192 --k 8192 --iters 20 > $L/Wmxfp8_${v}_r$r.log 2>&1; stamp "$v mxfp8 r$r rc=$?"
    limited 15 /tmp/$v --m 1,128 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/Wwo_${v}_r$r.log 2>&1; stamp "$v wo r$r rc=$?"
  done
done
xz -dc .device/s57e/mxgemm_gpu_tests.xz > /tmp/tests && chmod +x /tmp/tests
limited 200 /tmp/tests > $L/T.log 2>&1; stamp "T gpu suite rc=$?"
if [ -f .device/s57e/mxgemm_bench_trace.xz ]; then
  xz -dc .device/s57e/mxgemm_bench_trace.xz > /tmp/trace && chmod +x /tmp/trace
  for mode in mxfp8 weight-only; do
    MXGEMM_TRACE=1 limited 15 /tmp/trace --m 128 --n 8192 --k 8192 --iters 20 --warmup-ms 0 --mode $mode > $L/trace_$mode.log 2>&1
    stamp "trace $mode rc=$?"
  done
fi
cd $OUT && for f in logs/trace_*.log; do [ -f $f ] && { grep '^TRACE' $f | tail -20 > $f.tail; mv $f.tail $f; }; done
tar czf logs.tgz logs
table Wmxfp8 main warm
table Wwo main warm
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/T.log | head -8
for f in logs/trace_*.log; do [ -f $f ] && { echo "== $f"; tail -1 $f | tr '|' '\n' | sed 's/^ *//' | tr '\n' '|'; echo; }; done
cat logs/summary.txt
rm -rf logs
