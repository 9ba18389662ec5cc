#!/usr/bin/env bash
# Session 19 batch 5: the evict_first weight (ef = the working tree) against head (e7cf36b):
# GPU suite on ef, both decode suites on each; then ef against st3 (the scale chunks
# evict_first too) and pr (ef with the u8 maps' L2 promotion MXGEMM_EXP_PROMO=2: 128B, 0: none).
cd .device/s19
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./ef/mxgemm_gpu_tests > $OUT/gpu_tests_ef.log 2>&1; echo "gpu suite ef rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_ef.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in head ef; do
  run decmx $v --suite decode --iters 30
  run decwo $v --mode weight-only --suite decode --iters 30
done
for round in 1 2; do
  for v in ef st3 pr2 pr0; do
    b=$v; e=""
    case $v in pr2) b=pr; e=2;; pr0) b=pr; e=0;; esac
    mkdir -p $v; cp -n $b/mxgemm_bench $v/ 2>/dev/null
    MXGEMM_EXP_PROMO=$e run vmx $v --m 1,8,16,32 --n 28672 --k 8192 --iters 30
    MXGEMM_EXP_PROMO=$e run vmx2 $v --m 1,16 --n 8192 --k 8192 --iters 30
    MXGEMM_EXP_PROMO=$e run vwo $v --mode weight-only --m 1,16,64 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
paste_dec() { join <(table $OUT/$1_head.log) <(table $OUT/$1_ef.log) | awk '{print $1, $2, "->", $3}'; grep -A1 "vs cuBLAS bf16" $OUT/$1_head.log | head -1; grep -A1 "vs cuBLAS bf16" $OUT/$1_ef.log | head -1; }
echo "== decode mxfp8 head -> ef (us/x floor)"; paste_dec decmx
echo "== decode weight-only head -> ef"; paste_dec decwo
for f in vmx vmx2 vwo; do for v in ef st3 pr2 pr0; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
