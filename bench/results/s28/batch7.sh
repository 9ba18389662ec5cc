#!/usr/bin/env bash
# Session 28 batch 7: a lead, timing only: the 64-row tiles with 6 ring stages of 128 K instead
# of 4 (six_stages_at_64_rows.patch on 4320226; b3's ncu had the math warps waiting on stages to
# land). MXFP8 64 x {8192, 28672} x {28672, 8192}, fp16 form against the bf16 form (both with
# 6 stages); compare the fp16 column with b1 / b4 (4 stages, other calls).
cd .device/s28/${BIN:-c7}
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
mkdir -p $OUT/logs
timeout 100 ./mxgemm_bench --m 64 --n 8192,28672 --k 8192,28672 --compare-kernel bf16-values --iters 20 > $OUT/logs/six_stages.log 2>&1 || echo "bench rc=$?"
grep -E "checks" $OUT/logs/six_stages.log | head -2
awk '$4=="|" && $1+0>16 {printf "%sx%sx%s %s/%s(%s) %s %s | ", $1,$2,$3,$5,$20,$22,$10,$25} END{print ""}' $OUT/logs/six_stages.log
cd $OUT && tar czf logs.tgz logs && rm -rf logs
