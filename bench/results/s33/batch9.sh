#!/bin/bash
# Session 33 b9: the clean-flush ring with its scale chunks loaded G 128-K steps at a time
# (RING_SCALES=G: one TMA box of G x 512 contiguous bytes per 128 rows), G = 1 (the kernel's
# way), 2, 4, 8, in the kernel's 28672 x 8192 and 8192^2 split patterns; two rounds.
set -u
L=$OUT/logs; mkdir -p $L
R=.device/s33/spike/ring_stream
export RING_CLEAN_FLUSH=1 RING_TRACE=1
for round in 1 2; do
  { $R tma:256:128:4:1:112
    for g in 1 2 4 8; do RING_SCALES=$g $R tma:256:128:4:1:112; done
    RING_SCALES=4 $R tma:256:128:4:1:112:1:128:8
    RING_N=8192 $R tma:64:512:4:1:128:1:128
    for g in 1 4 8; do RING_N=8192 RING_SCALES=$g $R tma:64:512:4:1:128:1:128; done
    RING_N=8192 RING_SCALES=4 $R tma:64:512:4:1:128:1:128:8
  } > $L/ring_r$round.log 2>&1
done
cd $OUT && tar czf logs.tgz logs
for f in logs/ring_r*.log; do echo "== $f"; awk '/^weight/{w=$2"x"$4} /^hint/{cfg=$0; sub(/.*: +/,"",cfg); n=split(cfg,c," "); line=sprintf("%s sc%s %s:%s:%s:%s ctas %s xr %s us %s", w, $14, c[2], c[3], c[4], c[5], c[6], c[9], c[n-1])} /^RING_TRACE/{split($0,b,"|"); printf "%s |%s\n", line, b[5]}' $f; done
rm -rf logs
