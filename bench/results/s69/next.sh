#!/bin/bash
# Session 69, for the next H200 (never run here): issue #7's 0.992x and #3's M = 1024 at 0.888x
# (session 69, one run each) in more rounds, and a trace of the shapes that hold #7's large-M
# suite under 1.0x on the H200 (2048 / 4096 x 4096^2, 4096 x 8192 x 28672, 2048 x 8192^2).
# On an H100 it stops at once (the bars are the H200's). About 250 s on an H200.
# Binaries (main's kernels), built here and carried:
#   cmake -S . -B build-dev -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
#     -DMXGEMM_SM100=OFF -DMXGEMM_SANITIZED_TESTS=OFF
#   cmake --build build-dev -j2 --target mxgemm_bench
#   cmake -S . -B build-trace -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
#     -DMXGEMM_SM100=OFF -DMXGEMM_SANITIZED_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE
#   cmake --build build-trace -j2 --target mxgemm_bench
#   mkdir -p .device/next && xz -T2 -c build-dev/apps/mxgemm_bench > .device/next/bench.xz &&
#     xz -T2 -c build-trace/apps/mxgemm_bench > .device/next/bench_trace.xz
# Carry [".device/next"]. BUDGET (default 300) caps it.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-300}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200: stopped"; exit 0; }
unpack bench bench_trace
for r in 1 2; do
  limited 60 /tmp/bench --suite large --iters 20 --mode weight-only > $L/large_wo_r$r.log 2>&1; stamp "large weight-only r$r rc=$?"
  limited 15 /tmp/bench --suite mid --iters 20 --mode mxfp8 > $L/mid_mxfp8_r$r.log 2>&1; stamp "mid mxfp8 r$r rc=$?"
done
for s in "2048 4096 4096" "4096 4096 4096" "4096 8192 28672" "2048 8192 8192"; do set -- $s
  MXGEMM_TRACE=1 limited 25 /tmp/bench_trace --m $1 --n $2 --k $3 --iters 20 --mode weight-only > $L/trace_$1_$2_$3.log 2>&1
  stamp "trace $s rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5 " us, bf16 " $8}' $L/trace_$1_$2_$3.log)"
done
cd $OUT && tar czf logs.tgz logs
for f in logs/large_wo_r*.log logs/mid_mxfp8_r*.log; do
  echo "== $f: $(grep -A1 'geometric mean' $f | tail -1) $(grep -cE 'all checks passed' $f) pass line"
  awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' $f
done
# Per trace log: launches, then the median launch's (by span) stamps, as session 66's call3.sh.
for f in logs/trace_*.log; do
  echo "== $f: $(grep -c '^TRACE' $f) launches; the median by span:"
  grep '^TRACE' $f | awk -F'|' '{for(i=1;i<=NF;i++) if ($i ~ / end /) {split($i,a,"/"); print a[3] "\t" $0}}' | sort -n | \
    awk '{l[NR]=$0} END {print l[int(NR/2)+1]}' | cut -f2 | tr '|' '\n' | grep -E "first_loop_end|last_loop_end| end |stages|epi_ns|prestore|MHz|cyc" | tr '\n' '|'; echo
done
cat logs/summary.txt
rm -rf logs
