#!/bin/bash
# Session 67, call 2: call 1's K window said K = 6144 loses with the stream-K last wave (3 of the
# 4 thin shapes slower, one round). A second look, alternated, at K = 6144 against K = 8192 (in
# the window, the control) on the thin shapes (256-row tiles, last wave <= 60%: 2048 / 4096 /
# 8192 x 28672, 8192 x 8192), s66's spike binary auto (main before 6000902) against
# MXGEMM_EXP_TAIL_SK=0, two rounds weight-only, one MXFP8. Carry [".device/s66/exp_bench.xz"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-200}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s66/exp_bench.xz > /tmp/exp_bench && chmod +x /tmp/exp_bench
one() {  # one MODE ROUND VARIANT
  local env=""; [ $3 = sk ] && env="MXGEMM_EXP_TAIL_SK=0"
  { env $env timeout 40 /tmp/exp_bench --m 2048,4096,8192 --n 28672 --k 6144,8192 --iters 20 --mode $1
    env $env timeout 20 /tmp/exp_bench --m 8192 --n 8192 --k 6144,8192 --iters 20 --mode $1; } > $L/$1_$3_r$2.log 2>&1
  stamp "$1 $3 r$2 rc=$?"
}
for r in 1 2; do one weight-only $r auto; one weight-only $r sk; done
one mxfp8 1 auto; one mxfp8 1 sk
cd $OUT && tar czf logs.tgz logs
rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1" 2>/dev/null; }
echo "== weight-only: M N K | auto r1 sk r1 auto r2 sk r2 (us) | cuBLAS bf16 | sk check"
paste <(rows logs/weight-only_auto_r1.log shape) <(rows logs/weight-only_auto_r1.log 5) <(rows logs/weight-only_sk_r1.log 5) \
  <(rows logs/weight-only_auto_r2.log 5) <(rows logs/weight-only_sk_r2.log 5) <(rows logs/weight-only_auto_r1.log 8) <(rows logs/weight-only_sk_r1.log NF)
echo "== mxfp8: M N K | auto sk (us) | cuBLAS bf16 | sk check"
paste <(rows logs/mxfp8_auto_r1.log shape) <(rows logs/mxfp8_auto_r1.log 5) <(rows logs/mxfp8_sk_r1.log 5) <(rows logs/mxfp8_auto_r1.log 8) <(rows logs/mxfp8_sk_r1.log NF)
cat logs/summary.txt
rm -rf logs
