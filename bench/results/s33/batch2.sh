#!/bin/bash
# Session 33 b2: the TMA ring with dynamic units (RING_DYNAMIC: a global counter hands out
# units of c stages of a tile's K, as cuBLASLt's persistent kernels take tiles) against its
# static shares, 28672 x 8192 and 8192^2 bytes, two rounds; RING_TRACE gives each CTA's end.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s33/spike/ring_stream
for round in 1 2; do
  { RING_TRACE=1 $R tma:256:128:4:1:112 tma:256:128:4:1 tma:128:128:4:1
    RING_TRACE=1 RING_DYNAMIC=8 $R tma:256:128:4:1 tma:256:128:4:1:112 tma:128:128:4:1 tma:128:128:8:1 tma:256:128:6:1
    RING_TRACE=1 RING_DYNAMIC=16 $R tma:256:128:4:1 tma:128:128:4:1
    RING_TRACE=1 RING_DYNAMIC=32 $R tma:256:128:4:1
    RING_TRACE=1 RING_DYNAMIC=4 $R tma:128:128:4:1 tma:64:128:8:1
    RING_TRACE=1 RING_N=8192 $R tma:64:128:8:1:128 tma:128:128:4:1:64
    RING_TRACE=1 RING_N=8192 RING_DYNAMIC=8 $R tma:64:128:8:1 tma:64:128:8:1:128 tma:128:128:4:1 tma:128:128:6:1
    RING_TRACE=1 RING_N=8192 RING_DYNAMIC=16 $R tma:64:128:8:1 tma:128:128:4:1
    RING_TRACE=1 RING_N=8192 RING_DYNAMIC=4 $R tma:64:128:8:1 tma:128:128:4:1
  } > $L/ring_r$round.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
for f in logs/ring_r*.log; do echo "== $f"; awk '/^weight/{w=$2"x"$4} /^hint/{split($0,a,":"); d=$10; sub(/:.*/,"",d); cfg=$0; sub(/.*: +/,"",cfg); n=split(cfg,c," "); line=sprintf("%s dyn%s %s:%s:%s:%s ctas %s us %s", w, $10, c[2], c[3], c[4], c[5], c[6], c[n-1])} /^RING_TRACE/{split($0,b,"|"); printf "%s |%s|%s\n", line, b[4], b[5]}' $f | sed 's/dynamic //'; done
rm -rf logs
