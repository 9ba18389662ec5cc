#!/bin/bash
# Session 33 b4: the streaming kernel launched with all its resources but returning at entry
# (exit_at_entry.patch, MXGEMM_EXIT_AT_ENTRY set: timing only) under ncu, against the full
# kernel and launch_shape's empty kernel (b3: 2.18-2.24 us): is the kernel's own ~2.4 us
# outside its CTAs' span in the launch (its resources) or in its work?
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s33/exit/mxgemm_bench.xz > /tmp/bench_exit && chmod +x /tmp/bench_exit
M="gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic"
NC="timeout 150 ncu --clock-control none --kernel-name regex:stream_gemm_sm90 --metrics $M"
for env in full exit; do
  if [ $env = exit ]; then export MXGEMM_EXIT_AT_ENTRY=1; else unset MXGEMM_EXIT_AT_ENTRY; fi
  $NC /tmp/bench_exit --mode weight-only --m 1 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_wo_$env.log 2>&1
  $NC /tmp/bench_exit --m 16 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_mx_$env.log 2>&1
done
unset MXGEMM_EXIT_AT_ENTRY
cd $OUT && tar czf logs.tgz logs
for f in logs/ncu_*.log; do echo "== $f"; awk '/stream_gemm_sm90/{n++} /launch__grid_size/{g=$NF} /launch__block_size/{b=$NF} /registers_per_thread/{r=$NF} /shared_mem_per_block_dynamic/{s=$NF} /gpu__time_duration/{t[n]=$NF; key[n]=g" "b" "r" "s} END{for(i=1;i<=n;i++) print key[i], t[i]}' $f | sort | awk '{k=$1" "$2" "$3" "$4; v[k]=v[k]" "$5; c[k]++} END{for (k in v) print "grid/block/regs/smem", k, "n="c[k], v[k]}' | cut -c1-300; done
rm -rf logs
