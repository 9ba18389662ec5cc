#!/bin/bash
# Session 70, call 1 (H200 only; on an H100 session 69's next.sh stops at once and so does this):
# session 69's next.sh as written (issue #7's large weight-only suite and #3's mid suite, two
# rounds each; traces of the weight-only shapes under 1.0x), then traces of issue #3's M = 1024
# (MXFP8 and weight-only 1024 x 8192^2), where session 69 read 0.888x.
# Binaries: next.sh's header (main's kernels, plain and MXGEMM_STREAM_TRACE), carry [".device/next"].
# BUDGET (default 420) caps the whole call; next.sh gets 300 of it.
set -u
BUDGET=300 bash bench/results/s69/next.sh
grep -q H200 <(nvidia-smi -L) || exit 0
L=$OUT/extra; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET_ALL:-420}
: > $L/summary.txt
for mode in mxfp8 weight-only; do
  MXGEMM_TRACE=1 limited 25 /tmp/bench_trace --m 1024 --n 8192 --k 8192 --iters 20 --mode $mode > $L/trace_1024_$mode.log 2>&1
  stamp "trace 1024 8192 8192 $mode rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5 " us, bf16 " $8}' $L/trace_1024_$mode.log)"
done
for f in $L/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the median by span:"
  grep '^TRACE' $f | awk -F'|' '{for(i=1;i<=NF;i++) if ($i ~ / end /) {split($i,a,"/"); print a[3] "\t" $0}}' | sort -n | \
    awk '{l[NR]=$0} END {print l[int(NR/2)+1]}' | cut -f2 | tr '|' '\n' | grep -E "first_loop_end|last_loop_end| end |stages|epi_ns|prestore|MHz|cyc|pre" | tr '\n' '|'; echo
done
cat $L/summary.txt
