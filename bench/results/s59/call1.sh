#!/bin/bash
# Session 59, call 1: the promotion through shared memory and TMA's bulk add (bulk), against
# main and main at 4 ring stages (4st). Built here (README.md has the steps): .device/s59/
# mxgemm_bench.xz (main 14dcc08), mxgemm_bench_4st.xz (wide_four_stages.patch),
# mxgemm_bench_bulk.xz and mxgemm_gpu_tests_bulk.xz (the bulk branch). Carry [".device/s59"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_4st mxgemm_bench_bulk mxgemm_gpu_tests_bulk; do
  xz -dc .device/s59/$b.xz > /tmp/$b && chmod +x /tmp/$b
done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
limited 200 /tmp/mxgemm_gpu_tests_bulk > $L/tests_bulk.log 2>&1; stamp "GPU suite (bulk) rc=$?"
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in mxgemm_bench_bulk mxgemm_bench mxgemm_bench_4st; do
      limited 40 /tmp/$v --m 256,2048,4096 --n 8192 --k 28672,8192 --iters 20 --mode $mode > $L/P${mode}_${v}_r$r.log 2>&1
      stamp "P $mode $v r$r rc=$?"
    done
  done
done
limited 40 /tmp/mxgemm_bench_bulk --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode weight-only --promote never > $L/never_wo.log 2>&1
stamp "never wo rc=$?"
cd $OUT && tar czf logs.tgz logs
echo "== GPU suite (bulk)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" logs/tests_bulk.log | tail -8
for r in 1 2; do
  echo "== round $r: M N K | bulk, main, 4st (us) | cuBLAS bf16 (bulk's run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/P${mode}_mxgemm_bench_bulk_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/P${mode}_mxgemm_bench_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/P${mode}_mxgemm_bench_4st_r$r.log)
  done
done
echo "== bulk, --promote never, weight-only"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8}' logs/never_wo.log
cat logs/summary.txt
rm -rf logs
