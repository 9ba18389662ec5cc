#!/bin/bash
# Session 32 b3: the streaming kernel's timeline (MXGEMM_STREAM_TRACE build of c6's source,
# 328b98b) at the decode shapes where b2's ncu put it 6-9 us behind a no-math TMA ring of the
# same pattern (ring 256 x 128 B x 4 stages on 112 CTAs: 56.4-58 us kernel-only; the kernel
# 63-66 us at weight-only 1 x 28672 x 8192).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s32/trace/mxgemm_bench.xz > /tmp/bench_tr && chmod +x /tmp/bench_tr
run() { MXGEMM_TRACE=1 timeout 100 /tmp/bench_tr "$@" --iters 20 --warmup 1 --warmup-ms 0 2>&1; }
run --mode weight-only --m 1,8,16 --n 28672 --k 8192 > $L/tr_wo_28672x8192.log
run --mode weight-only --m 1,16 --n 8192 --k 28672 > $L/tr_wo_8192x28672.log
run --mode weight-only --m 1,16,32 --n 8192 --k 8192 > $L/tr_wo_8192x8192.log
run --m 16 --n 28672 --k 8192 > $L/tr_mx_28672x8192.log
cd $OUT && tar czf logs.tgz logs
for f in logs/tr_*.log; do echo "== $f"; grep TRACE $f | awk '{print substr($0, 1, 20)}' | sort | uniq -c | head -3; grep TRACE $f | sed -n '8p;16p;30p;50p;70p'; done
rm -rf logs
