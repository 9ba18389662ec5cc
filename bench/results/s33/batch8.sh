#!/bin/bash
# Session 33 b8: what of the kernel's own per-stage traffic and consumption the clean-flush
# ring (RING_CLEAN_FLUSH, b7) pays for: + its activation boxes (xrows 8), + its weight scale
# chunks (RING_SCALES), + a consumer that holds each stage (RING_CONSUME_NS), in the kernel's
# 28672 x 8192 pattern (256 x 128 B, 4 stages, 112 CTAs) and its 8192^2 split pattern (64 rows x
# 4 boxes of 128 B, 4 stages, 128 CTAs); the kernel's timeline (tr2) in the same call.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s33/spike/ring_stream
xz -dc .device/s33/tr2/mxgemm_bench.xz > /tmp/bench_tr2 && chmod +x /tmp/bench_tr2
export RING_CLEAN_FLUSH=1 RING_TRACE=1
for round in 1 2; do
  { $R tma:256:128:4:1:112 tma:256:128:4:1:112:1:128:8
    RING_SCALES=1 $R tma:256:128:4:1:112 tma:256:128:4:1:112:1:128:8
    RING_CONSUME_NS=300 $R tma:256:128:4:1:112
    RING_CONSUME_NS=600 $R tma:256:128:4:1:112
    RING_CONSUME_NS=900 $R tma:256:128:4:1:112
    RING_N=8192 $R tma:64:512:4:1:128:1:128 tma:64:512:4:1:128:1:128:8
    RING_N=8192 RING_SCALES=1 $R tma:64:512:4:1:128:1:128 tma:64:512:4:1:128:1:128:8
    RING_N=8192 RING_CONSUME_NS=600 $R tma:64:512:4:1:128:1:128
  } > $L/ring_r$round.log 2>&1
done
unset RING_CLEAN_FLUSH RING_TRACE
MXGEMM_TRACE=1 /tmp/bench_tr2 --mode weight-only --m 1 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_wo.log 2>&1
cd $OUT && tar czf logs.tgz logs
for f in logs/ring_r*.log; do echo "== $f"; awk '/^weight/{w=$2"x"$4} /^hint/{cfg=$0; sub(/.*: +/,"",cfg); n=split(cfg,c," "); line=sprintf("%s sc%s cons%s %s:%s:%s:%s ctas %s xr %s us %s", w, $14, $16, c[2], c[3], c[4], c[5], c[6], c[9], c[n-1])} /^RING_TRACE/{split($0,b,"|"); printf "%s |%s|%s\n", line, b[4], b[5]}' $f; done
python3 $OLDPWD/bench/results/s33/trace_summary.py logs/tr_*.log | grep -v "m=200" | sed 's/| maps.*first_tma/| first_tma/'
rm -rf logs
