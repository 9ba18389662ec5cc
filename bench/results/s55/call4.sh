#!/bin/bash
# Session 55, call 4: call3.sh on whatever GPU comes (it ran on an H100 held warm), rows 17, 32, 48, 64:
# ../s53/call2.sh that decides whether ../s51/bf16_permuted.patch lands, in a shorter call:
# (P) weight-only 17..64 rows x 8192 x {8192, 28672}, `--mx-values auto / bf16-permuted / bf16`,
# alternated, two rounds, with MXFP8 (auto) at the same shapes once a round as the mark to reach.
# Binary: .device/p/mxgemm_bench_perm.xz (447f9d0's library + the patch). Carry [".device/p"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-230}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
cat $L/smi.log
xz -dc .device/p/mxgemm_bench_perm.xz > /tmp/b && chmod +x /tmp/b
B=/tmp/b
for r in 1 2; do
  for v in auto bf16-permuted bf16; do
    limited 35 $B --m 17,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
    stamp "P $v r$r rc=$?"
  done
  limited 35 $B --m 17,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/P_mxfp8_r$r.log 2>&1
  stamp "P mxfp8 r$r rc=$?"
done
cd $OUT && tar czf logs.tgz logs
grep -h "memory floor's bandwidth" logs/P_auto_r1.log
table P auto bf16-permuted bf16 mxfp8
cat logs/summary.txt
rm -rf logs
