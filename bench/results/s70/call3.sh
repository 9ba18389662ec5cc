#!/bin/bash
# Session 70, call 3 (H200 only; stops at once elsewhere): a shorter call1 for the budget left.
# One round of issue #7's large weight-only suite and #3's mid MXFP8 suite, then traces of the
# K = 4096 weight-only shapes (2048 / 4096 x 4096^2: how much of a CTA's span the epilogue takes
# on the H200, the size of the per-warpgroup epilogue lead) and of MXFP8 1024 x 8192^2.
# Binaries as next.sh's header (main's kernels, plain and MXGEMM_STREAM_TRACE); carry
# [".device/next"]. BUDGET (default 240) caps it.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-240}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200: stopped"; exit 0; }
unpack bench bench_trace
limited 60 /tmp/bench --suite large --iters 20 --mode weight-only > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
limited 15 /tmp/bench --suite mid --iters 20 --mode mxfp8 > $L/mid_mxfp8.log 2>&1; stamp "mid mxfp8 rc=$?"
for s in "2048 4096 4096 weight-only" "4096 4096 4096 weight-only" "1024 8192 8192 mxfp8"; do set -- $s
  MXGEMM_TRACE=1 limited 25 /tmp/bench_trace --m $1 --n $2 --k $3 --iters 20 --mode $4 > $L/trace_$1_$2_$3_$4.log 2>&1
  stamp "trace $s rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5 " us, bf16 " $8}' $L/trace_$1_$2_$3_$4.log)"
done
cd $OUT && tar czf logs.tgz logs
for f in logs/large_wo.log logs/mid_mxfp8.log; do
  echo "== $f: $(grep -A1 'geometric mean' $f | tail -1) $(grep -cE 'all checks passed' $f) pass line"
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' $f
done
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the median by span:"
  grep '^TRACE' $f | awk -F'|' '{for(i=1;i<=NF;i++) if ($i ~ / end /) {split($i,a,"/"); print a[3] "\t" $0}}' | sort -n | \
    awk '{l[NR]=$0} END {print l[int(NR/2)+1]}' | cut -f2 | tr '|' '\n' | grep -E "first_loop_end|last_loop_end| end |stages|wait_ns|epi_ns|prestore|MHz|cyc|pre" | tr '\n' '|'; echo
done
cat logs/summary.txt
rm -rf logs
