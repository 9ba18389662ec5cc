#!/usr/bin/env bash
# Session 26 batch 1: what the 256-row tiles' long-K promotion costs, by parts. Variants (all
# built from 4266272; .device/s26/<v>/):
#   h   the committed build
#   st  the slot's red.add as a plain store (ablation_red_as_store.patch; timing only)
#   dr  the drain at each chain's end without the slot's stores, adds and read-back
#       (ablation_drain_only.patch; timing only)
#   ef  the 256-row tiles' weight and activation loaded evict_first, so that the slots
#       (evict_last) stay in L2 (s25/evict_first_operands_wide_tiles.patch; correct)
# Sustained (--warmup-ms 300, the default), two rounds, interleaved by variant.
cd .device/s26
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" --iters 20 >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for r in 1 2; do for v in h st dr ef; do
  run wo28 $v --mode weight-only --m 2048 --n 8192 --k 28672
  run mx28 $v --m 2048 --n 8192 --k 28672
  run f32 $v --m 4096 --n 8192 --k 8192 --mx-out fp32
  run wo8k $v --mode weight-only --m 8192 --n 8192 --k 8192
  run wo4k $v --mode weight-only --m 8192 --n 4096 --k 4096
done; done
timeout 120 ./ef/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.WholeTiles*:GpuStreamGemm.WideTiles*' > $OUT/tests_ef.log 2>&1; echo "ef wide-tile tests rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/tests_ef.log | head -8
echo "== shape: variant us/vs-bf16 (two rounds)"
for s in wo28 mx28 f32 wo8k wo4k; do for v in h st dr ef; do
  awk -v t="$s $v" '$4=="|" && $1+0>0 {a=a" "$5"/"$10} END{print t, a}' $OUT/${s}_$v.log
done; done
