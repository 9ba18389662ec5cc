#!/usr/bin/env bash
# Session 23 batch 5: f = p with 256-row tiles only up to K = 8192 (BF16 out), 4096 (FP32),
# 2048 (FP16). GPU suite on f; what the limits cost: large M at K = 28672 (BF16 out) and FP16
# / FP32 out at K = 8192, head against f, both modes.
cd .device/s23
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 300 ./f/mxgemm_gpu_tests > $OUT/gpu_tests_f.log 2>&1; echo "gpu suite f rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_f.log | head -12
grep "margin" $OUT/gpu_tests_f.log | grep -E "first 32|65536"
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --compare-kernel streaming --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in head f; do
  run l28 $v --m 2048,8192 --n 8192 --k 28672
  run l28w $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run h16 $v --m 4096 --n 8192 --k 8192 --mx-out fp16
  run h32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
  run h16w $v --mode weight-only --m 4096 --n 8192 --k 8192 --mx-out fp16
done
echo "== shape head_us f_us f_vs_cublas_bf16 change"
for s in l28 l28w h16 h32 h16w; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $10}' $OUT/${s}_f.log | sort) | awk '{d=($3-$2)/$2*100; printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
