#!/bin/bash
# Session 48, device call 4: the change of call3 (batched row-scale loads, the exact-row mark before
# the mainloop) in the trace build against main's trace build (epi_ns / prestore_ns: the summed
# time from a tile's mainloop end to its store), then two more alternated rounds of the plain
# builds on the mid shapes. Carry [".device/s48c4"] (the four binaries).
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-400}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_fix mxgemm_bench_trace mxgemm_bench_trace_fix; do
  xz -dc .device/s48c4/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
for v in trace trace_fix; do
  for m in 128 256 4096; do
    MXGEMM_TRACE=1 limited 30 /tmp/mxgemm_bench_$v --m $m --n 8192 --k 8192 --iters 20 > $L/T_${v}_$m.log 2>&1
    stamp "trace $v $m rc=$?"
  done
done
S="--m 128,256,512,1024 --n 8192 --k 8192 --iters 30"
for r in 1 2; do
  for v in head fix; do
    b=/tmp/mxgemm_bench; [ $v = fix ] && b=/tmp/mxgemm_bench_fix
    limited 40 $b $S > $L/S_${v}_r$r.log 2>&1; stamp "S $v r$r rc=$?"
  done
done
cd $OUT && tar czf logs.tgz logs
for f in logs/T_*.log; do
  echo "== $f: $(grep '^TRACE' $f | tail -1 | tr '|' '\n' | grep -E "last_loop_end| end|math_wait_ns|epi_ns|prestore|MHz" | tr '\n' '|')"
done
table S head fix
cat logs/summary.txt
rm -rf logs
