#!/bin/bash
# Session 62, calls 3 and 4 (inline on the same warm H100; carry [".device/s62"]): MXFP8 2048 x
# 8192 x 28672, five rounds each of main's bench against slot_size.patch's, order alternated
# (call 3: main first in odd rounds; call 4: FIRST=slot, the patch first in odd rounds).
for b in mxgemm_bench mxgemm_bench_slot; do xz -dc .device/s62/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
A=mxgemm_bench; B=mxgemm_bench_slot; [ "${FIRST:-main}" = slot ] && { A=mxgemm_bench_slot; B=mxgemm_bench; }
mkdir -p $OUT/s
for r in 1 2 3 4 5; do
  vs="$A $B"; [ $((r % 2)) = 0 ] && vs="$B $A"
  for v in $vs; do
    timeout 30 /tmp/$v --m 2048 --n 8192 --k 28672 --iters 20 --mode mxfp8 > $OUT/s/${v}_r$r.log 2>&1
    echo "r$r $v $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1,$2,$3,$5,$8,$NF}' $OUT/s/${v}_r$r.log)"
  done
done
cd $OUT && tar czf s.tgz s && rm -rf s
