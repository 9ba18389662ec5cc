#!/bin/bash
# Session 66, call 3: where call 2's tail stream-K gained more than its stage count (weight-only
# 2048 x 28672 x 8192 1397 -> 1272 us, 8192 x 8192^2 1533 -> 1458, where 14 -> 13.58 and 16 ->
# 15.52 tile-times predict 3%) and where it lost (2048 x 8192^2, 8192 x 8192 x 28672): the trace
# build with the same switch (tail_stream_k.patch on build-trace: -DMXGEMM_STREAM_TRACE, main
# 871c9be's kernels; `cmake --build build-trace -j2 --target mxgemm_bench`, `xz -T2 -c` into
# .device/s66/exp_bench_trace.xz), auto against MXGEMM_EXP_TAIL_SK=0, two rounds, each launch's
# per-CTA stamps in the logs. Carry [".device/s66"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-200}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s66/exp_bench_trace.xz > /tmp/trace && chmod +x /tmp/trace
for r in 1 2; do
  for s in "2048 28672 8192" "8192 8192 8192" "2048 8192 8192" "8192 8192 28672"; do
    set -- $s
    for v in auto p0; do
      if [ $v = auto ]; then MXGEMM_TRACE=1 limited 25 /tmp/trace --m $1 --n $2 --k $3 --iters 20 --mode weight-only > $L/${v}_$1_$2_$3_r$r.log 2>&1
      else MXGEMM_EXP_TAIL_SK=0 MXGEMM_TRACE=1 limited 25 /tmp/trace --m $1 --n $2 --k $3 --iters 20 --mode weight-only > $L/${v}_$1_$2_$3_r$r.log 2>&1; fi
      stamp "$v $s r$r rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5 " us, bf16 " $8}' $L/${v}_$1_$2_$3_r$r.log)"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
# Per log: launches, the median launch's (by end max) end min/med/max, last_loop_end min/med/max, MHz.
for f in logs/*_r1.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the median by span:"
  grep '^TRACE' $f | awk -F'|' '{for(i=1;i<=NF;i++) if ($i ~ / end /) {split($i,a,"/"); print a[3] "\t" $0}}' | sort -n | \
    awk '{l[NR]=$0} END {print l[int(NR/2)+1]}' | cut -f2 | tr '|' '\n' | grep -E "first_loop_end|last_loop_end| end |stages|epi_ns|prestore|MHz|cyc" | tr '\n' '|'; echo
done
cat logs/summary.txt
rm -rf logs
