#!/bin/bash
# Session 58, call 4. Carry [".device/s58"]: call 2's mxgemm_bench (the staggered promotion) and
# mxgemm_bench_prefetch.xz (the same plus the producer's L2 prefetch of the slot kSlotPrefetchStages
# before each promotion that adds into it), built here as call 2's.
# (N) ncu, one launch, weight-only 2048 x 8192 x 28672, the prefetch build's auto: DRAM bytes
#     against call 3b (auto 964 / 218 MB read / written, never 804 / 29).
# (T) timing, alternated, two rounds, both modes, 2048 / 4096 x 8192 x 28672: stagger-only auto,
#     prefetch auto, prefetch unstaggered, prefetch never.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-540}
: > $L/summary.txt
for b in mxgemm_bench mxgemm_bench_prefetch; do xz -dc .device/s58/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
B=/tmp/mxgemm_bench P=/tmp/mxgemm_bench_prefetch
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $L/smi.log 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_red.sum,lts__t_sectors_op_write.sum,sm__cycles_active.avg
for v in auto unstaggered; do
  limited 60 ncu --clock-control none --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 1 --launch-count 1 \
    --metrics $M $P --m 2048 --n 8192 --k 28672 --iters 20 --warmup 1 --mode weight-only --promote $v > $L/ncu_prefetch_$v.log 2>&1
  stamp "ncu prefetch $v rc=$?"
done
for r in 1 2; do
  for mode in weight-only mxfp8; do
    for v in s-auto p-auto p-unstaggered p-never; do
      bin=$B; [ ${v%%-*} = p ] && bin=$P
      limited 30 $bin --m 2048,4096 --n 8192 --k 28672 --iters 20 --mode $mode --promote ${v#*-} > $L/T${mode}_${v}_r$r.log 2>&1
      stamp "$mode $v r$r rc=$?"
    done
  done
done
cd $OUT && tar czf logs.tgz logs
cat logs/smi.log
for v in auto unstaggered; do
  echo "== ncu prefetch $v"; grep -E "gpu__time_duration|dram__bytes|lts__t_sector_hit|lts__t_sectors_op|sm__cycles_active" logs/ncu_prefetch_$v.log | sed 's/  */ /g'
done
for r in 1 2; do
  echo "== round $r: M N K | stagger-only auto, prefetch auto, prefetch unstaggered, prefetch never (us) | cuBLAS bf16 (last run) | check"
  for mode in weight-only mxfp8; do
    echo "-- $mode"
    paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/T${mode}_s-auto_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_p-auto_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/T${mode}_p-unstaggered_r$r.log) \
          <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5, $8, $NF}' logs/T${mode}_p-never_r$r.log)
  done
done
cat logs/summary.txt
rm -rf logs
