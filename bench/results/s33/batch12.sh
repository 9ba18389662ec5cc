#!/bin/bash
# Session 33 b12: who waits for whom in the decode kernel (tr3: the trace build with the
# producer's time blocked on empty stages and math thread 0's time blocked on full ones, per CTA).
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s33/tr3/mxgemm_bench.xz > /tmp/bench_tr3 && chmod +x /tmp/bench_tr3
export MXGEMM_TRACE=1
/tmp/bench_tr3 --mode weight-only --m 1,16 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_wo.log 2>&1
/tmp/bench_tr3 --m 1,16 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_mx.log 2>&1
unset MXGEMM_TRACE
cd $OUT && tar czf logs.tgz logs
python3 $OLDPWD/bench/results/s33/trace_summary.py logs/tr_*.log | grep -v "m=200" | sed 's/| maps.*first_tma/| first_tma/; s/| first_loop_end.*| end /| end /'
rm -rf logs
