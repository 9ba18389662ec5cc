#!/bin/bash
# Session 55, call 2: one call useful on either GPU (asking for an H200 mostly gets an H100).
# On an H200: ../s53/call2.sh (the permuted BF16 copy and the values forms at 17..128 rows;
# carry .device/p).
# On an H100, the decode kernel choices at N = K = 8192 (1.32x-1.38x the floor there against
# #4 / #7's 1.25x), which sessions 22 and 50 measured on the H200 only:
# (K) the library's choice against the skinny kernel (--compare-kernel skinny: same run,
# last column), 1..16 rows, both modes; (N) --split-k never against auto, 1..64 rows, both
# modes. Two rounds, alternated. Binary: .device/s54/mxgemm_bench_7bf803e.xz (main's library).
# Carry [".device/s54", ".device/p"].
set -u
nvidia-smi --query-gpu=name --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  BUDGET=${BUDGET:-550} bash bench/results/s53/call2.sh
  exit
fi
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-400}
: > $L/summary.txt
B=/tmp/bench
xz -dc .device/s54/mxgemm_bench_7bf803e.xz > $B && chmod +x $B
for r in 1 2; do
  for mode in mxfp8 weight-only; do
    limited 40 $B --m 1,4,8,16 --n 8192 --k 8192 --iters 30 --mode $mode --compare-kernel skinny \
      > $L/K_${mode}_r$r.log 2>&1; stamp "K $mode r$r rc=$?"
    for s in auto never; do
      limited 40 $B --m 1,8,16,32,64 --n 8192 --k 8192 --iters 30 --mode $mode --split-k $s \
        > $L/N_${mode}_${s}_r$r.log 2>&1; stamp "N $mode $s r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
rows() { awk '$1 ~ /^[0-9]+$/ && NF > 20' "$1"; }
for mode in mxfp8 weight-only; do
  echo "== K $mode: M N K | mxgemm us | skinny us (the comparison column), r1 then r2"
  for r in 1 2; do rows logs/K_${mode}_r$r.log | awk -v r=$r '{print "r" r, $1, $2, $3, "|", $5, "|", $20, "| floor", $24}'; done
  echo "== N $mode: M N K | auto us | never us, r1 then r2"
  for r in 1 2; do
    paste <(rows logs/N_${mode}_auto_r$r.log | awk '{print $1, $2, $3, $5}') \
          <(rows logs/N_${mode}_never_r$r.log | awk '{print $5}') | sed "s/^/r$r /"
  done
done
cat logs/summary.txt
rm -rf logs
