#!/usr/bin/env bash
# Session 17 batch 5 (device; carry [".device"]): the skinny kernel with 6 stages a warp for up
# to 8 rows (skinny_6_stages.patch on 1c42555: 5 units in flight a warp, 160 KB of HBM reads a
# SM, against 5 stages / 128 KB): GPU suite, then same-run A/B on the skinny kernel's shapes,
# two rounds.
cd .device/s17s
for d in */; do for f in $d*.xz; do [ -e "${f%.xz}" ] || xz -d -k $f; chmod +x ${f%.xz}; done; done
timeout 240 ./st6/mxgemm_gpu_tests --gtest_filter='GpuSkinny*:GpuWeightOnly*:GpuGemm*' > $OUT/gpu_tests_st6.log 2>&1; echo "gpu tests st6 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_st6.log | head -5
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in base st6; do
    run sk $v --m 1,8 --n 8192,28672 --k 8192 --iters 30
    run sk $v --m 1,8 --n 8192 --k 28672 --iters 30
    run sk $v --m 1,8 --n 1024,4096 --k 4096,8192 --iters 30
    run skwo $v --mode weight-only --m 1,8 --n 4096,8192 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in sk skwo; do for v in base st6; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
