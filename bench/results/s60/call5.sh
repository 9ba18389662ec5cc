#!/bin/bash
# Session 60, call 5 (same H100): weight-only 512 / 1024 x 8192^2, main then hi, two more rounds
# (call 4 had hi 1.7% behind there). Carry [".device/s60"].
for b in mxgemm_bench_hi mxgemm_bench; do xz -dc .device/s60/$b.xz > /tmp/$b && chmod +x /tmp/$b; done; mkdir -p $OUT/m2; for r in 2 3; do for b in mxgemm_bench mxgemm_bench_hi; do timeout 25 /tmp/$b --m 512,1024 --n 8192 --k 8192 --iters 20 --mode weight-only > $OUT/m2/wo_${b}_r$r.log 2>&1; echo "r$r $b rc=$? $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {printf "%s %s (bf16 %s) | ", $1, $5, $8}' $OUT/m2/wo_${b}_r$r.log)"; done; done
