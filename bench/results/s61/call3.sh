#!/bin/bash
# Session 61, call 3: is the five-stage ring faster where nothing promotes? Main before session 60
# (cf8d22a: 256-row tiles ring over 5 stages, 192-row over 6, no high parts; carried as
# .device/s60/mxgemm_bench.xz) against main 6331120 (4 / 5 stages and the high parts;
# .device/s61b/mxgemm_bench.xz), at the K = 8192 shapes of the large suite and 4096 x 8192^2's
# neighbours, where neither promotes (BF16 out). Five rounds, the builds' order alternated
# (ABBA), both modes. Carry [".device/s61c"] (the two benches, copied from .device/s60 and .device/s61b).
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
xz -dc .device/s61c/mxgemm_bench_pre60.xz > /tmp/pre60 && chmod +x /tmp/pre60
xz -dc .device/s61c/mxgemm_bench.xz > /tmp/main && chmod +x /tmp/main
shapes() {  # $1 binary, $2 mode, $3 log
  { $1 --m 2048,4096,8192 --n 8192 --k 8192 --iters 20 --mode $2
    $1 --m 2048,4096 --n 28672 --k 8192 --iters 20 --mode $2
    $1 --m 4096,8192 --n 4096 --k 4096 --iters 20 --mode $2; } > $3 2>&1
}
for r in 1 2 3 4 5; do
  if [ $((r % 2)) = 1 ]; then order="pre60 main"; else order="main pre60"; fi
  for mode in weight-only mxfp8; do
    for v in $order; do
      [ $((BUDGET - SECONDS)) -lt 40 ] && { stamp "skipped $mode $v r$r (time)"; continue; }
      shapes /tmp/$v $mode $L/${mode}_${v}_r$r.log; stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
echo "== mean mxgemm us over the rounds (n), pre60 / main, and main / pre60 - 1; cuBLAS bf16 mean"
for mode in weight-only mxfp8; do
  echo "-- $mode"
  for v in pre60 main; do
    cat logs/${mode}_${v}_r[0-9].log | awk -v v=$v '$1 ~ /^[0-9]+$/ && NF > 20 {print $1 "x" $2 "x" $3, v, $5, $8}'
  done | awk '{k[$1] = 1; s[$1, $2] += $3; n[$1, $2]++; b[$1] += $4; nb[$1]++}
    END {for (x in k) printf "%s  pre60 %.1f (%d) / main %.1f (%d)  %+.2f%%  bf16 %.1f\n", x, s[x, "pre60"] / n[x, "pre60"],
           n[x, "pre60"], s[x, "main"] / n[x, "main"], n[x, "main"], 100 * (s[x, "main"] / n[x, "main"] / (s[x, "pre60"] / n[x, "pre60"]) - 1), b[x] / nb[x]}' | sort -t x -k1,1n
done
grep -h "FAIL" logs/*.log | head -3
cat logs/summary.txt
rm -rf logs
