#!/bin/bash
# Session 32 b6: (1) launch_shape: a kernel's ncu duration against its CTAs' span, by launch
# shape; (2) c1 (the tensor maps prefetched at kernel entry) against main (s31/c6), plain,
# two rounds alternated, decode shapes; (3) c1's timeline (trace build), first TMA.
set -u
L=$OUT/logs; mkdir -p $L
./.device/s32/spike/launch_shape > $L/spans.log 2>&1
timeout 100 ncu --clock-control none --kernel-name stamp_kernel --metrics gpu__time_duration.sum ./.device/s32/spike/launch_shape > $L/ncu_spans.log 2>&1
for c in s31/c6 s32/c1; do xz -dc .device/$c/mxgemm_bench.xz > /tmp/bench_${c//\//_} && chmod +x /tmp/bench_${c//\//_}; done
if [ -f .device/s32/trace2/mxgemm_bench.xz ]; then xz -dc .device/s32/trace2/mxgemm_bench.xz > /tmp/bench_tr2 && chmod +x /tmp/bench_tr2; fi
S="--m 1,8,16,32 --n 8192,28672 --k 8192 --iters 20"
for round in 1 2; do
  for c in s31_c6 s32_c1; do
    /tmp/bench_$c --mode weight-only $S > $L/wo_${c}_r$round.log 2>&1
    /tmp/bench_$c --m 1,16 --n 8192,28672 --k 8192 --iters 20 > $L/mx_${c}_r$round.log 2>&1
  done
done
[ -x /tmp/bench_tr2 ] && MXGEMM_TRACE=1 timeout 100 /tmp/bench_tr2 --mode weight-only --m 1,16 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr2_wo.log 2>&1
cd $OUT && tar czf logs.tgz logs
cat logs/spans.log
grep -E "gpu__time" logs/ncu_spans.log | awk '{printf "%s ", $NF} NR%8==0 {print ""}'
for f in logs/wo_*.log logs/mx_*.log; do echo "== $f"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $16, $25}' $f; done
rm -rf logs
