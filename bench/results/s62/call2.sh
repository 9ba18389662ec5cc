#!/bin/bash
# Session 62, call 2 (run inline on the warm H100 after call 1; carry [".device/s62"]): MXFP8
# 2048 x 8192 x 28672, slot_size.patch's bench against main's, four rounds (slot first in each),
# then each with --promote never.
for b in mxgemm_bench mxgemm_bench_slot; do xz -dc .device/s62/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
mkdir -p $OUT/r
for r in 1 2 3 4; do for v in mxgemm_bench_slot mxgemm_bench; do
  timeout 30 /tmp/$v --m 2048 --n 8192 --k 28672 --iters 20 --mode mxfp8 > $OUT/r/${v}_r$r.log 2>&1
  echo "r$r $v $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1,$2,$3,$5,$8,$NF}' $OUT/r/${v}_r$r.log)"
done; done
timeout 30 /tmp/mxgemm_bench_slot --m 2048 --n 8192 --k 28672 --iters 20 --mode mxfp8 --promote never > $OUT/r/slot_never.log 2>&1
echo "slot promote-never $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5,$8,$NF}' $OUT/r/slot_never.log)"
timeout 30 /tmp/mxgemm_bench --m 2048 --n 8192 --k 28672 --iters 20 --mode mxfp8 --promote never > $OUT/r/main_never.log 2>&1
echo "main promote-never $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5,$8,$NF}' $OUT/r/main_never.log)"
