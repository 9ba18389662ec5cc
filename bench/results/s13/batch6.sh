#!/usr/bin/env bash
# session 13 batch 6: activation multicast in clusters of two (large M, 256-row tiles): a
# smoke run (hang guard), its tests, A/B against --no-multicast in the same binary.
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
# (the smoke run passed in the first try of this batch)
timeout 200 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.LargeMMulticast*:GpuWeightOnly.MatchesReference*' > $OUT/mc_test.log 2>&1; rc=$?; echo "multicast tests rc=$rc"
grep -E "^\[  (OK|FAILED) |Failure|multicast changed" $OUT/mc_test.log | head -20
if [ $rc -ne 0 ]; then tail -30 $OUT/mc_test.log; exit 1; fi
run() { local name=$1; shift; timeout 200 ./new/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in mc nomc; do
  flag=""; [ $v = nomc ] && flag="--no-multicast"
  run ab_$v $flag --m 2048,4096 --n 8192 --k 8192 --iters 20
  run ab_$v $flag --m 4096 --n 28672 --k 8192 --iters 20
  run abwo_$v $flag --mode weight-only --m 2048,4096 --n 8192 --k 8192 --iters 20
done
for v in ab_mc ab_nomc abwo_mc abwo_nomc; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/$v.log; echo; done
grep -h FAIL $OUT/ab*.log | head -5
