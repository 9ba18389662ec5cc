#!/usr/bin/env bash
# Session 17 batch 6 (device; carry [".device"]): the decode suites at 1c42555 (the kept early
# fixup; the kernels of 6cf613c), MXFP8 and weight-only; and the TMA ring spike on 112 CTAs
# against 132 (whole 256-row tiles of 28672 x 8192: no stream-K parts at all, 15% fewer SMs).
cd .device
xz -d -k -f head/mxgemm_bench.xz && chmod +x head/mxgemm_bench spike/*
./spike/ring_stream tma:256:64:8:1 tma:256:64:8:1:112 tma:256:64:8:1:128 tma:256:64:11:1:112 tma:128:64:8:2:224 > $OUT/ring_ctas.log 2>&1
cat $OUT/ring_ctas.log
timeout 280 ./head/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx.log 2>&1; echo "decode mx rc=$?"
timeout 280 ./head/mxgemm_bench --suite decode --iters 30 --mode weight-only > $OUT/decode_wo.log 2>&1; echo "decode wo rc=$?"
for f in decode_mx decode_wo; do
  echo "-- $f: M N K us ratio-vs-cuBLAS-bf16 x-floor"
  awk '$4=="|" && $1+0>0 {printf "%sx%sx%s %s %s %s;", $1, $2, $3, $5, $10, $25}' $OUT/$f.log; echo
  grep -E "geomean|geometric" $OUT/$f.log | head -2
done
