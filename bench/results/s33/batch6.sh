#!/bin/bash
# Session 33 b6: the committed library (c2: main plus the trace build's finer stamps, which
# normal builds leave out): the GPU test suite, and the decode suite in both modes.
set -u
L=$OUT/logs; mkdir -p $L
for f in mxgemm_bench mxgemm_gpu_tests; do xz -dc .device/s33/c2/$f.xz > /tmp/$f && chmod +x /tmp/$f; done
timeout 400 /tmp/mxgemm_gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
timeout 200 /tmp/mxgemm_bench --suite decode --iters 30 > $L/decode_mx.log 2>&1; echo "decode mx rc=$?"
timeout 200 /tmp/mxgemm_bench --suite decode --mode weight-only --iters 30 > $L/decode_wo.log 2>&1; echo "decode wo rc=$?"
cd $OUT && tar czf logs.tgz logs
tail -3 logs/gpu_tests.log; grep -E "FAILED" logs/gpu_tests.log | head
for f in logs/decode_*.log; do echo "== $f"; grep -iE "geomean|geometric" $f | head -4; awk '$1 ~ /^[0-9]+$/ && NF > 20 && $2 >= 8192 {print $1, $2, $3, $5, $10, $16, $25}' $f | head -30; done
rm -rf logs
