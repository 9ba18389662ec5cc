#!/usr/bin/env bash
# Session 25 batch 4: h3 = 0fcbcaa (the committed library; bench with the sustained warm-up):
# the GPU suite. np = h3 with BF16 out never promoted on the 256-row tiles
# (ablation_unpromoted_bf16.patch; timing only: the long-K accuracy tests would fail): how much
# of the K = 28672 shapes' sustained time the promotion is. Two rounds.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 250 ./h3/mxgemm_gpu_tests > $OUT/gpu_tests_h3.log 2>&1; echo "gpu tests h3 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran|SKIPPED" $OUT/gpu_tests_h3.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h3 np; do
  run wo28 $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run mx28 $v --m 2048 --n 8192 --k 28672
done; done
echo "== shape: variant us/vs-bf16/cuBLAS-us (two rounds)"
for s in wo28 mx28; do for v in h3 np; do
  awk -v v=$v '$4=="|" && $1+0>0 {k=$1"x"$2"x"$3; a[k]=a[k]" "$5"/"$10"/"$8} END{for (k in a) print v, k, a[k]}' $OUT/${s}_$v.log | sed "s/^/$s /"
done; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
