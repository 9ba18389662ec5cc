#!/bin/bash
# Session 58, call 3b: call 3's ncu part again (--iters must be at least 20); no timing rounds. Carry [".device/s58"]: call 2's binaries, and mxgemm_bench_evict_normal.xz
# (the same tree with slot_evict_normal.patch: the promoted slots' lines without evict_last).
# What the 256-row tiles' promotion costs at K = 28672, where call 2 put it at 4-5% and the
# stagger took about 1% of it:
# (N) ncu, one launch each, weight-only 2048 x 8192 x 28672, --promote auto / unstaggered / never:
#     DRAM bytes, L2 hit rate, duration. If the slots' evict_last lines (17 MB on 132 CTAs) crowd
#     the operands out of L2, auto reads more DRAM than never.
# (T) timing, alternated, two rounds: auto, unstaggered, and the evict_normal build's auto, both
#     modes, 2048 / 4096 x 8192 x 28672.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_evict_normal; do xz -dc .device/s58/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
B=/tmp/mxgemm_bench B2=/tmp/mxgemm_bench_evict_normal
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $L/smi.log 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_red.sum,lts__t_sectors_op_write.sum,sm__cycles_active.avg
for v in auto unstaggered never; do
  limited 60 ncu --clock-control none --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 1 --launch-count 1 \
    --metrics $M $B --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --mode weight-only --promote $v > $L/ncu_$v.log 2>&1
  stamp "ncu $v rc=$?"
done
limited 60 ncu --clock-control none --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 1 --launch-count 1 \
  --metrics $M $B2 --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --mode weight-only > $L/ncu_evict_normal.log 2>&1
stamp "ncu evict_normal rc=$?"
for r in; do
  for mode in weight-only mxfp8; do
    for v in auto unstaggered en; do
      if [ $v = en ]; then limited 30 $B2 --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode > $L/T${mode}_${v}_r$r.log 2>&1
      else limited 30 $B --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode --promote $v > $L/T${mode}_${v}_r$r.log 2>&1; fi
      stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for v in auto unstaggered never evict_normal; do
  echo "== ncu $v"; grep -E "gpu__time_duration|dram__bytes|lts__t_sector_hit|lts__t_sectors_op|sm__cycles_active" logs/ncu_$v.log | sed 's/  */ /g'
done
for r in; do
  echo "== round $r: M N K | auto unstaggered evict_normal (us) | cuBLAS bf16 (evict_normal's run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/T${mode}_auto_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_unstaggered_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/T${mode}_en_r$r.log)
  done
done
cat logs/summary.txt
rm -rf logs
