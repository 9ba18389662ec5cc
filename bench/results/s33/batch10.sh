#!/bin/bash
# Session 33 b10: b9's 8192^2 split-pattern runs with scale chunks came out 1.6x slower than b8's
# identical G = 1 runs (36 against 22 us): the same configurations again, three rounds,
# alternating G = 1 and G = 4 with the scale-free ring.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s33/spike/ring_stream
export RING_CLEAN_FLUSH=1 RING_TRACE=1 RING_N=8192
for round in 1 2 3; do
  { $R tma:64:512:4:1:128:1:128
    RING_SCALES=1 $R tma:64:512:4:1:128:1:128
    RING_SCALES=4 $R tma:64:512:4:1:128:1:128
    RING_SCALES=1 $R tma:64:512:4:1:128:1:128 tma:64:512:4:1:128:1:128
  } > $L/ring_r$round.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
for f in logs/ring_r*.log; do echo "== $f"; awk '/^hint/{cfg=$0; sub(/.*: +/,"",cfg); n=split(cfg,c," "); line=sprintf("sc%s %s:%s:%s:%s us %s", $14, c[2], c[3], c[4], c[5], c[n-1])} /^RING_TRACE/{split($0,b,"|"); printf "%s |%s|%s\n", line, b[3], b[5]}' $f; done
rm -rf logs
