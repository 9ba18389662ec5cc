#!/usr/bin/env bash
# session 10 batch J: two weight fragments for the four-warpgroup shapes (exp-frag2) vs 4bba64e kernels
cd .device
timeout 200 ./exp/mxgemm_gpu_tests --gtest_filter="GpuStreamGemm.*:GpuWeightOnly.*:GpuGemm.*" > $OUT/gpu_tests.log 2>&1; echo "gpu subset rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
for r in 1 2; do for v in cur exp; do
  echo "### $v"
  ./$v/mxgemm_bench --m 24,32 --n 8192,28672 --k 8192 --iters 30
  ./$v/mxgemm_bench --m 24,32 --n 8192 --k 28672 --iters 30
  ./$v/mxgemm_bench --m 32 --n 1024,4096 --k 8192,4096 --iters 30
  ./$v/mxgemm_bench --m 12,16,32 --n 8192,28672 --k 8192 --iters 30 --mode weight-only
  ./$v/mxgemm_bench --m 16 --n 1024,4096 --k 8192,4096 --iters 30 --mode weight-only
done > $OUT/ab_r$r.log 2>&1; done
echo "== us: cur exp cur exp"
paste <(awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; key[i]=$1"x"$2"x"$3; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%-16s %7s %7s\n", key[i], t["cur",i], t["exp",i]}' $OUT/ab_r1.log) \
      <(awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%7s %7s\n", t["cur",i], t["exp",i]}' $OUT/ab_r2.log)
