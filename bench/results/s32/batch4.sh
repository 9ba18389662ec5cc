#!/bin/bash
# Session 32 b4: what the activation pre-pass costs at decode shapes, in the bench's timing.
# abl = main's library with ablate_prepass.patch (MXGEMM_ABLATE_PREPASS set: no pre-pass
# launched, outputs wrong: the bench's check flags them). Same binary, two rounds alternated.
set -u
L=$OUT/logs; mkdir -p $L
xz -dc .device/s32/abl/mxgemm_bench.xz > /tmp/bench_abl && chmod +x /tmp/bench_abl
S1="--m 1,8,16 --n 28672,8192 --k 8192 --iters 20"
S2="--m 1,16 --n 8192 --k 28672 --iters 20"
for round in 1 2; do
  for v in base abl; do
    if [ $v = abl ]; then export MXGEMM_ABLATE_PREPASS=1; else unset MXGEMM_ABLATE_PREPASS; fi
    /tmp/bench_abl --mode weight-only $S1 > $L/wo1_${v}_r$round.log 2>&1
    /tmp/bench_abl --mode weight-only $S2 > $L/wo2_${v}_r$round.log 2>&1
    /tmp/bench_abl $S1 > $L/mx1_${v}_r$round.log 2>&1
  done
done
unset MXGEMM_ABLATE_PREPASS
cd $OUT && tar czf logs.tgz logs
for f in logs/*.log; do echo "== $f"; awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $10, $16, $25}' $f; done
rm -rf logs
