#!/usr/bin/env bash
# Session 23 batch 6: g = 06409bb with the 256-row tiles back at every K above 128 rows, their
# sum promoted into global memory after chains of 8192 / 4096 / 2048 K (BF16 / FP32 / FP16 out).
# GPU suite on g; memcheck + racecheck of the long-K tests; head against g on the shapes the
# limits had cost; the large suites of g (both modes).
cd .device/s23
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 300 ./g/mxgemm_gpu_tests > $OUT/gpu_tests_g.log 2>&1; echo "gpu suite g rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_g.log | head -12
grep "margin" $OUT/gpu_tests_g.log | grep -E "first 32"
timeout 200 compute-sanitizer --tool memcheck ./g/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.WideTiles*' > $OUT/memcheck_g.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_g.log | head -4
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --compare-kernel streaming --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in head g; do
  run l28 $v --m 2048,8192 --n 8192 --k 28672
  run l28w $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run h16 $v --m 4096 --n 8192 --k 8192 --mx-out fp16
  run h32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
done
echo "== shape head_us g_us g_vs_cublas_bf16 change"
for s in l28 l28w h16 h32; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $10}' $OUT/${s}_g.log | sort) | awk '{d=($3-$2)/$2*100; printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
timeout 200 ./g/mxgemm_bench --suite large --iters 20 > $OUT/large_mx_g.log 2>&1 || echo "large mx rc=$?"
timeout 200 ./g/mxgemm_bench --mode weight-only --suite large --iters 20 > $OUT/large_wo_g.log 2>&1 || echo "large wo rc=$?"
for f in $OUT/large_*.log; do echo "$(basename $f)"; grep -A4 'geometric mean' $f | head -5; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
