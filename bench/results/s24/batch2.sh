#!/usr/bin/env bash
# Session 24 batch 2: p = c + the slots stored and added with an L2 evict_last policy and
# prefetched into L2 by the producer after the item's last stage; s = p with the CTAs' first
# promotion staggered by (cta % 4) quarters of a chain. c, n as in batch 1.
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./p/mxgemm_gpu_tests --gtest_filter='*LongK*:*WideTiles*:*WholeTiles*' > $OUT/gpu_longk_p.log 2>&1; echo "longk p rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_longk_p.log | head -12
grep -i "margin" $OUT/gpu_longk_p.log | grep "first 32"
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in c p s n; do
  run l28 $v --m 2048,8192 --n 8192 --k 28672
  run l28w $v --mode weight-only --m 2048,8192 --n 8192 --k 28672
  run h16 $v --m 4096,8192 --n 8192 --k 8192 --mx-out fp16
  run h32 $v --m 4096,8192 --n 8192 --k 8192 --mx-out fp32
done; done
echo "== shape: us c | p | s | n (two rounds each), vs cublas bf16"
for s in l28 l28w h16 h32; do echo "-- $s"; for v in c p s n; do awk -v v=$v '$4=="|" && $1+0>0 {print v, $1"x"$2"x"$3, $5, $10}' $OUT/${s}_$v.log; done | sort -k2,2 -k1,1 -s | awk '{k=$1" "$2; a[k]=a[k]" "$3"/"$4; if(!(k in o)){o[k]=n++; ord[n-1]=k}} END{for(i=0;i<n;i++) print ord[i], a[ord[i]]}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
