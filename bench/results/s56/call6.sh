#!/bin/bash
# Session 56, call 6: call5.sh's trace with three more stamps (this commit's stream_trace.cuh):
# from math thread 0's mainloop end, summed over stored items, the math threads' barrier passed
# (barrier_ns: the CTA's other math warps done), and for paired halves the first and second
# cluster barrier passed (pair_sync_ns: the partner CTA done too; pair_done_ns: the exchange
# done). The trace build as in call5.sh, of this commit. Carry [".device/s56"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-200}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s56/mxgemm_bench_trace2.xz > /tmp/t && chmod +x /tmp/t
for mode in mxfp8 weight-only; do
  for m in 128 256; do
    MXGEMM_TRACE=1 limited 30 /tmp/t --m $m --n 8192 --k 8192 --iters 20 --mode $mode > $L/trace_${mode}_$m.log 2>&1
    stamp "trace $mode $m rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the last:"
  grep '^TRACE' $f | tail -1 | tr '|' '\n' | sed 's/^ *//' | grep -E "first_stage|last_loop_end|^end|_ns|MHz" | tr '\n' '|'; echo
done
cat logs/summary.txt
rm -rf logs
