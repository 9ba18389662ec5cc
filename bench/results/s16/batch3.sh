#!/usr/bin/env bash
# session 16 batch 3: per-CTA timeline dump of the skinny kernel (MXGEMM_TRACE_DUMP) at 1 x 28672 x
# 8192 and 1 x 8192 x 8192, every launch of a bench run: is a slow CTA slow because of its SM or
# because of its range of the weight?
cd .device/s16
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
export MXGEMM_TRACE=1 MXGEMM_TRACE_DUMP=1
timeout 100 ./bench_trace --m 1 --n 28672 --k 8192 --iters 20 > $OUT/dump_28672.log 2>&1; echo "rc=$?"
timeout 100 ./bench_trace --m 1 --n 8192 --k 8192 --iters 20 > $OUT/dump_8192.log 2>&1; echo "rc=$?"
xz -T4 $OUT/dump_*.log; ls -la $OUT
