#!/bin/bash
# Session 49, call 8 (H100, warm after call 7, same binary): rounds 3 and 4 of call 7's A/B,
# --l2-ahead 0 against 8 (the raster groups' first CTAs prefetch), both modes.
mkdir -p $OUT/logs; B=/tmp/bench; S="--m 2048,4096,8192 --n 8192 --k 8192 --iters 20"; for r in 3 4; do for mode in weight-only mxfp8; do for v in 0 8; do timeout 14 $B $S --mode $mode --l2-ahead $v > $OUT/logs/P${mode}_${v}_r$r.log 2>&1; echo "$mode $v r$r: $(awk '$1 ~ /^[0-9]+$/ && NF>20 {printf "%s ", $5}' $OUT/logs/P${mode}_${v}_r$r.log)"; done; done; done
