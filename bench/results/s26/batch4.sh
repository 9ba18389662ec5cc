#!/usr/bin/env bash
# Session 26 batch 4: what an fp16 values form could gain. h = the committed build; f2 = h
# with the values forms' weight conversion cut to what an fp16 form would issue, codes to
# fp16 and one fp16 multiply by the scale (2 instructions a pair instead of 5;
# ablation_fp16_values_conversion.patch; timing only, its values are wrong, so the bench's
# check fails and it exits 1). The 16-row MXFP8 rows take the codes form, which f2 leaves
# alone: a control. Sustained (--warmup-ms 300), two rounds, interleaved.
cd .device/s26
for f in h/*.xz f2/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" >> $OUT/logs/${name}_$v.log 2>&1 || echo "$name $v rc=$?" >> $OUT/logs/rc.log; }
for r in 1 2; do for v in h f2; do
  run mx16 $v --m 16 --n 28672 --k 8192 --iters 30
  run mx32a $v --m 32 --n 28672 --k 8192 --iters 30
  run mx32b $v --m 32 --n 8192 --k 28672 --iters 30
  run mx64a $v --m 64 --n 28672 --k 8192 --iters 30
  run mx64b $v --m 64 --n 8192 --k 28672 --iters 30
  run wo32 $v --mode weight-only --m 32 --n 28672 --k 8192 --iters 30
  run wo64 $v --mode weight-only --m 64 --n 28672 --k 8192 --iters 30
  run mx128 $v --m 128 --n 8192 --k 8192 --iters 30
  run mx256 $v --m 256 --n 8192 --k 8192 --iters 20
  run mx4k $v --m 4096 --n 8192 --k 8192 --iters 20
  run wo4k $v --mode weight-only --m 4096 --n 8192 --k 8192 --iters 20
done; done
echo "== shape: variant us / vs cuBLAS bf16 / x floor (two rounds)"
for s in mx16 mx32a mx32b mx64a mx64b wo32 wo64 mx128 mx256 mx4k wo4k; do for v in h f2; do
  awk -v t="$s $v" '$4=="|" && $1+0>0 {a=a" "$5"/"$10"/"$25} END{print t, a}' $OUT/logs/${s}_$v.log
done; done
cd $OUT && tar czf logs.tgz logs && rm -rf logs
