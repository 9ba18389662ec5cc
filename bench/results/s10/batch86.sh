#!/usr/bin/env bash
# session 10 batch C (reduce slots hoisted): split reduction (branch split-reduce) vs main a1d7d88
cd .device
timeout 170 ./split/mxgemm_gpu_tests --gtest_filter="GpuStreamGemm.*:GpuWeightOnly.*:GpuGemm.ScalesOutside*" > $OUT/gpu_tests.log 2>&1; echo "gpu subset rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
sweep() {  # $1 mode args
  echo "### main"; ./main/mxgemm_bench $1 --iters 30
  echo "### split"; ./split/mxgemm_bench $1 --iters 30
  echo "### off"; MXGEMM_DEV_SPLIT_CTAS_PER_TILE=100000 ./split/mxgemm_bench $1 --iters 30
  echo "### min2"; MXGEMM_DEV_SPLIT_MIN_STAGES=2 ./split/mxgemm_bench $1 --iters 30
  echo "### min8"; MXGEMM_DEV_SPLIT_MIN_STAGES=8 ./split/mxgemm_bench $1 --iters 30
  echo "### split2"; ./split/mxgemm_bench $1 --iters 30
}
sweep "--m 16,32,64 --n 1024,4096 --k 4096,8192" > $OUT/sweep_mx.log 2>&1
sweep "--m 9,16,32,64 --n 1024,4096 --k 4096,8192 --mode weight-only" > $OUT/sweep_wo.log 2>&1
for f in sweep_mx sweep_wo; do
  echo "== $f us: main split off min2 min8 split2"
  awk '/^###/{v=$2; i=0} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{i++; key[i]=$1"x"$2"x"$3; t[v,i]=$5; n=i} END{for(i=1;i<=n;i++) printf "%-16s %7s %7s %7s %7s %7s %7s\n", key[i], t["main",i], t["split",i], t["off",i], t["min2",i], t["min8",i], t["split2",i]}' $OUT/$f.log
done


