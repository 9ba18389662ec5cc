#!/bin/bash
# Session 33 b7: the ring's timings with L2 flushed by a read (RING_CLEAN_FLUSH: clean lines, as
# the library's bench leaves L2 by rotating inputs) against the cudaMemsetAsync flush (dirty
# lines written back during the next launch), next to the kernel's own timeline (tr2, plain)
# and the bench, in one call.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s33/spike/ring_stream
xz -dc .device/s33/tr2/mxgemm_bench.xz > /tmp/bench_tr2 && chmod +x /tmp/bench_tr2
xz -dc .device/s33/c2/mxgemm_bench.xz > /tmp/bench_c2 && chmod +x /tmp/bench_c2
for round in 1 2; do
  { RING_TRACE=1 $R tma:256:128:4:1:112
    RING_TRACE=1 RING_CLEAN_FLUSH=1 $R tma:256:128:4:1:112 tma:128:128:4:1
    RING_TRACE=1 RING_CLEAN_FLUSH=1 RING_CLUSTER=2 $R tma:128:128:12:1
    RING_TRACE=1 RING_CLEAN_FLUSH=1 RING_DYNAMIC=8 $R tma:128:128:4:1 tma:256:128:4:1
    RING_TRACE=1 RING_N=8192 $R tma:64:128:8:1:128
    RING_TRACE=1 RING_CLEAN_FLUSH=1 RING_N=8192 $R tma:64:128:8:1:128
    RING_TRACE=1 RING_CLEAN_FLUSH=1 RING_N=8192 RING_DYNAMIC=8 $R tma:128:128:4:1 tma:64:128:8:1
  } > $L/ring_r$round.log 2>&1
done
MXGEMM_TRACE=1 /tmp/bench_tr2 --mode weight-only --m 1 --n 8192,28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_wo.log 2>&1
MXGEMM_TRACE=1 /tmp/bench_tr2 --m 16 --n 28672 --k 8192 --iters 20 --warmup 1 --warmup-ms 0 > $L/tr_mx.log 2>&1
/tmp/bench_c2 --mode weight-only --m 1 --n 8192,28672 --k 8192 --iters 30 > $L/bench_wo.log 2>&1
/tmp/bench_c2 --m 16 --n 28672 --k 8192 --iters 30 > $L/bench_mx.log 2>&1
cd $OUT && tar czf logs.tgz logs
for f in logs/ring_r*.log; do echo "== $f"; awk '/^weight/{w=$2"x"$4} /^hint/{cfg=$0; sub(/.*: +/,"",cfg); n=split(cfg,c," "); line=sprintf("%s %s %s %s:%s:%s:%s ctas %s us %s", w, $9" "$10, $12, c[2], c[3], c[4], c[5], c[6], c[n-1])} /^RING_TRACE/{split($0,b,"|"); printf "%s |%s|%s|%s\n", line, b[3], b[4], b[5]}' $f; done
python3 $OLDPWD/bench/results/s33/trace_summary.py logs/tr_*.log | grep -v "m=200" | sed 's/| maps.*first_tma/| first_tma/'
for f in logs/bench_*.log; do awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, "mxgemm", $5, "cuBLASLt fp8", $16, "x floor", $25}' $f; done
rm -rf logs
