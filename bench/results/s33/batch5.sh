#!/bin/bash
# Session 33 b5: the trace build with each warp's exit stamped (last_exit, atomicMax per CTA)
# under ncu: the kernel's duration against its first CTA start to last warp exit. b4 put the
# launch itself (the kernel returning at entry) at launch_shape's empty kernel's 2.2 us.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s33/tr2/mxgemm_bench.xz > /tmp/bench_tr2 && chmod +x /tmp/bench_tr2
NC="timeout 150 ncu --clock-control none --kernel-name regex:stream_gemm_sm90 --metrics gpu__time_duration.sum"
export MXGEMM_TRACE=1
$NC /tmp/bench_tr2 --mode weight-only --m 1 --n 8192 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_tr_wo_1x8192.log 2>&1
$NC /tmp/bench_tr2 --mode weight-only --m 1 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_tr_wo_1x28672.log 2>&1
$NC /tmp/bench_tr2 --m 16 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/ncu_tr_mx_16x28672.log 2>&1
/tmp/bench_tr2 --mode weight-only --m 1 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_wo_plain.log 2>&1
unset MXGEMM_TRACE
cd $OUT && tar czf logs.tgz logs
python3 $OLDPWD/bench/results/s33/trace_summary.py logs/*.log | grep -v "m=200"
for f in logs/ncu_*.log; do echo "$f ncu median: $(grep gpu__time $f | awk '{print $NF}' | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)], "n=" NR}')"; done
rm -rf logs
