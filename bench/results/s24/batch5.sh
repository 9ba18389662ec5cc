#!/usr/bin/env bash
# Session 24 batch 5: the whole-tile long-K test with operands of one sign added (K = 8192,
# 28672), on h3 (the committed kernels: FP32 out promoting every 4096 K on 256-row tiles), g2
# (FP32 every 2048 K) and f (FP32 beyond 4096 K on the 128-row tiles, as before session 24);
# FP32-out speed of h2 (= h3's kernels), g2 and f, two rounds.
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
for v in h3 g2 f; do
  timeout 120 ./$v/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.WholeTiles*:GpuStreamGemm.WideTiles*' > $OUT/longk_$v.log 2>&1; echo "longk $v rc=$?"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/longk_$v.log | head -4
  grep "margin" $OUT/longk_$v.log | grep -E "fp32|same-sign" | head -24
done
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h2 g2 f; do
  run h32 $v --m 4096,8192 --n 8192 --k 8192 --mx-out fp32
  run h32k $v --m 4096 --n 8192 --k 28672 --mx-out fp32
done; done
for s in h32 h32k; do echo "-- $s"; for v in h2 g2 f; do awk -v v=$v '$4=="|" && $1+0>0 {print v, $1"x"$2"x"$3, $5, $10}' $OUT/${s}_$v.log; done | sort -k2,2 -k1,1 -s | awk '{k=$1" "$2; a[k]=a[k]" "$3"/"$4; if(!(k in o)){o[k]=n++; ord[n-1]=k}} END{for(i=0;i<n;i++) print ord[i], a[ord[i]]}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
