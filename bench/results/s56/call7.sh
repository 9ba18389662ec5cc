#!/bin/bash
# Session 56, call 7: the paired halves' exchange pushed instead of pulled (MXGEMM_PAIR_PUSH=1:
# each CTA stores the half its partner finishes into the partner's shared memory with
# st.shared::cluster after the first cluster barrier, then adds what it was sent from its own
# shared memory after the second; main pulls it with ld.shared::cluster between the barriers).
# Call 6's trace measured the pull at 1.8 us (128 rows) and 2.9 us (256 rows) between the barriers.
# Binaries: .device/s56/mxgemm_bench.xz (main, pull), .device/s56/push/{mxgemm_bench,
# mxgemm_gpu_tests,mxgemm_bench_trace}.xz (this tree with -DMXGEMM_PAIR_PUSH=1; the trace build
# with -DMXGEMM_STREAM_TRACE too). (G) the push build's GPU suite; racecheck on the halves test.
# (A) pull against push, alternated, two rounds, mid shapes in both modes. (T) push's trace at 128
# and 256 x 8192^2. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s56/mxgemm_bench.xz > /tmp/pull && chmod +x /tmp/pull
for b in mxgemm_bench mxgemm_gpu_tests mxgemm_bench_trace; do xz -dc .device/s56/push/$b.xz > /tmp/push_$b && chmod +x /tmp/push_$b; done
cp /tmp/push_mxgemm_bench /tmp/push
limited 200 /tmp/push_mxgemm_gpu_tests > $L/G.log 2>&1; stamp "G push gpu suite rc=$?"
limited 90 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/push_mxgemm_gpu_tests \
  --gtest_filter='GpuStreamGemm.HalvesOfTheKMatchReference' > $L/racecheck.log 2>&1; stamp "racecheck rc=$?"
for r in 1 2; do
  for v in pull push; do
    limited 25 /tmp/$v --m 128,256,512,1024 --n 8192 --k 8192 --iters 20 > $L/A_${v}_r$r.log 2>&1; stamp "A mx $v r$r rc=$?"
    limited 25 /tmp/$v --m 128,256,512,1024 --n 8192 --k 8192 --iters 20 --mode weight-only > $L/W_${v}_r$r.log 2>&1; stamp "W $v r$r rc=$?"
  done
done
for mode in mxfp8 weight-only; do
  for m in 128 256; do
    MXGEMM_TRACE=1 limited 20 /tmp/push_mxgemm_bench_trace --m $m --n 8192 --k 8192 --iters 20 --mode $mode > $L/trace_${mode}_$m.log 2>&1
    stamp "trace $mode $m rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" logs/G.log | head -8
grep -E "RACECHECK SUMMARY|^\[  (PASSED|FAILED) " logs/racecheck.log | tail -2
table A pull push; table W pull push
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the last:"
  grep '^TRACE' $f | tail -1 | tr '|' '\n' | sed 's/^ *//' | grep -E "last_loop_end|^end|prestore|barrier_ns|pair_|MHz" | tr '\n' '|'; echo
done
cat logs/summary.txt
rm -rf logs
