#!/usr/bin/env bash
# Session 25 batch 7 (the budget's last ~200 s): h3 (committed) / ef = h3 with the 256-row tiles'
# weight and activation loaded with an L2 evict_first policy (evict_first_operands_wide_tiles.patch),
# so that the promotion slots (evict_last) stay in L2: ncu (b6) counted 193 MB of DRAM writes at
# weight-only 2048 x 8192 x 28672, where D is 34 MB. Sustained, one round.
cd .device/s25
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
for v in h3 ef; do
  timeout 40 ./$v/mxgemm_bench --mode weight-only --m 2048 --n 8192 --k 28672 --iters 20 > $OUT/wo28_$v.log 2>&1 || echo "wo28 $v rc=$?"
  timeout 40 ./$v/mxgemm_bench --mode weight-only --m 8192 --n 8192 --k 8192 --iters 20 > $OUT/wo8k_$v.log 2>&1 || echo "wo8k $v rc=$?"
done
for s in wo28 wo8k; do for v in h3 ef; do awk -v t="$s $v" '$4=="|" && $1+0>0 {print t, $5, $10}' $OUT/${s}_$v.log; done; done
