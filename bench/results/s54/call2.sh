#!/bin/bash
# Session 54, call 2, for an H200; tried from 02:40 to 03:20 and never completed (README.md).
# Carry [".device/s54"]: mxgemm_bench_7bf803e.xz = .device/s53's mxgemm_bench, main 7bf803e's library; mxgemm_bench_447f9d0.xz = session 51's mxgemm_bench_cached,
# the library before the per-device cache refactor; mxgemm_bench_perm.xz = .device/p's).
# (H) the host side a call, old against new library on one machine: call 1 (H100) timed
# GpuHostCost at 7.5 / 18.6 / 8.8 us against session 52's 4.7 / 8.6 / 5.4 us on another H100.
# Two rounds, alternated, 48 x 8192 x 8192 in both modes; the CSV's mxgemm_host_us.
# (S) GpuHostCost alone and under memcheck, from this session's mxgemm_gpu_tests (main 7bf803e +
# the test's compute-sanitizer detection: its time bound is not held under a sanitizer).
# Then ../s53/call2.sh (H200 only) in the time left, reading the perm bench from .device/s54.
set -u
L=$OUT/host; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-110}
: > $L/summary.txt
for v in 447f9d0 7bf803e; do xz -dc .device/s54/mxgemm_bench_$v.xz > /tmp/b_$v && chmod +x /tmp/b_$v; done
for r in 1 2; do
  for v in 447f9d0 7bf803e; do
    for mode in mxfp8 weight-only; do
      limited 25 /tmp/b_$v --m 48 --n 8192 --k 8192 --iters 10 --mode $mode --csv $L/H_${v}_${mode}_r$r.csv \
        > $L/H_${v}_${mode}_r$r.log 2>&1
      stamp "H $v $mode r$r rc=$?"
    done
  done
done
xz -dc .device/s54/mxgemm_gpu_tests.xz > /tmp/t && chmod +x /tmp/t
limited 20 /tmp/t --gtest_filter='GpuHostCost.*' > $L/S_plain.log 2>&1; stamp "S plain rc=$?"
limited 40 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/t --gtest_filter='GpuHostCost.*' \
  > $L/S_memcheck.log 2>&1; stamp "S memcheck rc=$?"
grep -hE "host side|ERROR SUMMARY|^\[  (PASSED|FAILED) " $L/S_plain.log $L/S_memcheck.log
echo "== host us a call (mxgemm column), 48 x 8192 x 8192"
for f in $L/H_*.csv; do
  awk -F, -v n=$(basename $f .csv) 'NR==1{for(i=1;i<=NF;i++) if($i=="mxgemm_host_us") c=i} NR==2{print n, $c}' $f
done
cat $L/summary.txt
(cd $OUT && tar czf host.tgz host && rm -rf host)
mkdir -p .device/p && cp .device/s54/mxgemm_bench_perm.xz .device/p/
BUDGET=$((${TOTAL:-520} - SECONDS)) bash bench/results/s53/call2.sh
