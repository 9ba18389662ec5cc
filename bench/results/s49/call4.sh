#!/bin/bash
# Session 49, call 4 (H200, warm after call 3, same binary): the decode suites, both modes.
mkdir -p $OUT/logs; B=/tmp/bench; [ -x $B ] || (xz -dc .device/next/mxgemm_bench.xz > $B && chmod +x $B); for mode in mxfp8 weight-only; do timeout 100 $B --suite decode --iters 30 --mode $mode > $OUT/logs/decode_$mode.log 2>&1; echo "decode $mode rc=$?"; done; cd $OUT && tar czf logs.tgz logs; for mode in mxfp8 weight-only; do grep -A4 "geometric mean" logs/decode_$mode.log; done; rm -rf logs
