#!/bin/bash
# Session 53, call 2, only on an H200 (issue #4 / #7's bars are the H200's; it prints "not an
# H200" and stops elsewhere): session 51's mxgemm_bench_perm (main 447f9d0's library +
# ../s51/bf16_permuted.patch, whose GPU test passed on an H100 in session 52's call 3):
# (P) weight-only 17..64 rows `--mx-values auto / bf16-permuted / bf16`; (W, X) 48..128 rows auto
# against bf16 (../s50/next.sh's (1)); (Q) 17..32 rows weight-only auto / f16 against MXFP8
# bf16 / auto (its (2)). Alternated, two rounds. Carry [".device/p"].
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
cat $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200"; exit 0; }
xz -dc .device/p/mxgemm_bench_perm.xz > /tmp/b && chmod +x /tmp/b
B=/tmp/b
for r in 1 2; do
  for v in auto bf16-permuted bf16; do
    limited 30 $B --m 17,24,32,48,64 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/P_${v}_r$r.log 2>&1
    stamp "P $v r$r rc=$?"
  done
  for v in auto bf16; do
    limited 30 $B --m 96,128 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values $v > $L/W_${v}_r$r.log 2>&1
    stamp "W $v r$r rc=$?"
    limited 30 $B --m 48,64,96,128 --n 28672 --k 8192 --iters 30 --mode weight-only --mx-values $v > $L/X_${v}_r$r.log 2>&1
    stamp "X $v r$r rc=$?"
  done
  limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only > $L/Q_woauto_r$r.log 2>&1; stamp "Q wo auto r$r rc=$?"
  limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode weight-only --mx-values f16 > $L/Q_wof16_r$r.log 2>&1; stamp "Q wo f16 r$r rc=$?"
  limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 --mx-values bf16 > $L/Q_mxbf16_r$r.log 2>&1; stamp "Q mxfp8 bf16 r$r rc=$?"
  limited 25 $B --m 17,24,32 --n 8192 --k 8192,28672 --iters 30 --mode mxfp8 > $L/Q_mxauto_r$r.log 2>&1; stamp "Q mxfp8 auto r$r rc=$?"
done
cd $OUT && tar czf logs.tgz logs
grep -h "memory floor's bandwidth" logs/P_auto_r1.log
table P auto bf16-permuted bf16; table W auto bf16; table X auto bf16
table Q woauto wof16 mxbf16 mxauto
cat logs/summary.txt
rm -rf logs
