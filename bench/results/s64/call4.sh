#!/bin/bash
# Session 64, call 4 (the same warm machine, one command line, kept here): weight-only 2048 / 4096
# x 8192 x 28672, new / main alternated, four rounds. Carry [".device/s62/mxgemm_bench_slot.xz",
# ".device/s64/mxgemm_bench.xz"].
L=$OUT/logs; mkdir -p $L; xz -dc .device/s62/mxgemm_bench_slot.xz > /tmp/mb && chmod +x /tmp/mb; xz -dc .device/s64/mxgemm_bench.xz > /tmp/nb && chmod +x /tmp/nb; S=$SECONDS; for r in 1 2 3 4; do for b in nb mb; do timeout 30 /tmp/$b --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode weight-only > $L/k28672_${b}_r$r.log 2>&1; echo "r$r $b $(awk '$1 ~ /^[0-9]+$/ && NF > 20 {printf "%s %s ", $1, $5}' $L/k28672_${b}_r$r.log) t=$((SECONDS-S))s"; done; [ $((SECONDS-S)) -gt 150 ] && break; done; true
