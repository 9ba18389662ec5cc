#!/usr/bin/env bash
# Session 24 batch 1: c = head + promote_coalesced.patch (the 256-row tiles' global promotion
# slots laid out [kAccRegs/4][threads]) + the 256-row tiles at every K for FP16/FP32 out
# (wide_tiles_preferred true); n = c without any promotion (timing only: outside the bars).
# Long-K accuracy tests on c; head / c / n on the shapes the promotion costs, two rounds.
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./c/mxgemm_gpu_tests --gtest_filter='*LongK*:*WideTiles*:*WholeTiles*' > $OUT/gpu_longk_c.log 2>&1; echo "longk c rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_longk_c.log | head -12
grep -i "margin" $OUT/gpu_longk_c.log | head -40
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in head c n; do
  run l28 $v --m 2048,8192 --n 8192 --k 28672
  run l28w $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run h16 $v --m 4096 --n 8192 --k 8192 --mx-out fp16
  run h32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
done; done
echo "== shape: us head | c | n (two rounds each), c vs cublas bf16"
for s in l28 l28w h16 h32; do echo "-- $s"; for v in head c n; do awk -v v=$v '$4=="|" && $1+0>0 {print v, $1"x"$2"x"$3, $5, $10}' $OUT/${s}_$v.log; done | sort -k2,2 -k1,1 -s; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
