#!/usr/bin/env bash
# Session 18 batch 1 (device; carry [".device"]; variants from build_variants.sh):
#  - base (98e63e5): GpuStreamGemm.CodesFormWholeTilesMatchReference, new in 754b031, never run;
#  - wtiles (base + ../s17/next/skinny_whole_tiles.patch): the whole GPU suite, then a same-run
#    A/B against base, two rounds: 1 and 8 rows on 28672 x 8192 (224 tiles: whole tiles) and
#    8192 x 8192 (unchanged schedule: the control).
cd .device/s18v
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 60 ./base/mxgemm_gpu_tests --gtest_filter='*CodesFormWholeTiles*:*EarlyFixup*' > $OUT/gpu_new_base.log 2>&1; echo "base new tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_new_base.log | head -5
timeout 200 ./wtiles/mxgemm_gpu_tests > $OUT/gpu_tests_wtiles.log 2>&1; echo "gpu suite wtiles rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_wtiles.log | head -5
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in base wtiles; do
    run mx $v --m 1,8 --n 28672,8192 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx; do for v in base wtiles; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
