#!/usr/bin/env bash
# Session 18 batch 2 (device; carry [".device"]; variants from build_variants.sh):
# weight-only up to 16 rows in the codes form, without (wocodes) and with (wowatch) a weight
# watch in the codes form, against base (98e63e5). GPU suite on wowatch, the weight-only and
# streaming tests on wocodes; then same-run A/B/C, two rounds.
cd .device/s18v
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./wowatch/mxgemm_gpu_tests > $OUT/gpu_tests_wowatch.log 2>&1; echo "gpu suite wowatch rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_wowatch.log | head -8
timeout 120 ./wocodes/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly*:GpuStreamGemm*:GpuGemm.Scales*' > $OUT/gpu_tests_wocodes.log 2>&1; echo "gpu tests wocodes rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_wocodes.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in base wocodes wowatch; do
    run wo $v --mode weight-only --m 1,8,16 --n 28672 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,16 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 16 --n 8192,4096 --k 8192,4096 --iters 30
    [ $v != wocodes ] && run mx $v --m 12,16 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for v in base wocodes wowatch; do echo "-- wo $v (us/x floor, rounds 1 2)"; table $OUT/wo_$v.log; done
for v in base wowatch; do echo "-- mx $v (us/x floor, rounds 1 2)"; table $OUT/mx_$v.log; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
