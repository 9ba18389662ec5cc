#!/usr/bin/env bash
# Session 25 batch 3: how much of the large-M kernels' time under the power cap is the weight's
# conversion. h2 = 00a0f80 + the bench's sustained warm-up; nc = h2 with the fragment's
# f16 -> bf16 step and scale multiply left out (ablation_no_conversion.patch; timing only, the
# results are wrong). Each at its sustained clock (--warmup-ms 300) and in a burst (0), two rounds.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h2 nc; do for w in 300 0; do
  run wo8k_w$w $v --mode weight-only --m 8192 --n 8192 --k 8192 --warmup-ms $w
  run mx8k_w$w $v --m 8192 --n 8192 --k 8192 --warmup-ms $w --compare streaming
  run wo28_w$w $v --mode weight-only --m 2048 --n 8192 --k 28672 --warmup-ms $w
done; done; done
echo "== shape warmup-ms: variant us/vs-bf16 (two rounds)"
for s in wo8k wo28 mx8k; do for w in 300 0; do for v in h2 nc; do
  awk -v t="$s w$w $v" '$4=="|" && $1+0>0 {a=a" "$5"/"$10} END{print t, a}' $OUT/${s}_w${w}_$v.log
done; done; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
