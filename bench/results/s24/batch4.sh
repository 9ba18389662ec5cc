#!/usr/bin/env bash
# Session 24 batch 4: r = h2 with the values forms' two-fragment loop promoting once a chain
# (p.promote_stages: BF16 8192 K, FP32 4096, FP16 512 as before) instead of every 512 K, each
# promotion being a wgmma drain. GPU suite on r; h2 against r (two rounds) on the shapes of those
# forms (64 / 128 rows, weight-only 16 / 32 rows); decode suites of r.
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 300 ./r/mxgemm_gpu_tests > $OUT/gpu_tests_r.log 2>&1; echo "gpu suite r rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_r.log | head -12
grep "margin" $OUT/gpu_tests_r.log | grep -E "split K" | head -12
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 30 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h2 r; do
  run mx $v --m 64,128 --n 8192,28672 --k 8192
  run mx $v --m 64,128 --n 8192 --k 28672
  run wo $v --mode weight-only --m 16,32,64,128 --n 8192,28672 --k 8192
  run wo $v --mode weight-only --m 16,64,128 --n 8192 --k 28672
done; done
echo "== shape: us h2 | r (two rounds each), vs cublas bf16"
for s in mx wo; do echo "-- $s"; for v in h2 r; do awk -v v=$v '$4=="|" && $1+0>0 {print v, $1"x"$2"x"$3, $5, $10}' $OUT/${s}_$v.log; done | sort -k2,2 -k1,1 -s | awk '{k=$1" "$2; a[k]=a[k]" "$3"/"$4; if(!(k in o)){o[k]=n++; ord[n-1]=k}} END{for(i=0;i<n;i++) print ord[i], a[ord[i]]}'; done
timeout 150 ./r/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_r.log 2>&1 || echo "decode mx rc=$?"
timeout 150 ./r/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_r.log 2>&1 || echo "decode wo rc=$?"
for f in $OUT/decode_*.log; do echo "$(basename $f)"; grep -A2 'geometric mean' $f | head -3; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
