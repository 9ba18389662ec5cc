#!/usr/bin/env bash
# Session 20 batch 2: ring spike, 256-row stages of 64 K (the streaming kernel now) against
# 128-K stages (two 64-byte boxes, or one 128-byte box), with a 16-row bf16 activation box,
# L2 evict_first or not, on the three decode weights.
cd .device/s20
for f in spike/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=$1 RING_K=$2 RING_HINT=$3 RING_SWZ=$4 $S $5 | tail -1 | sed "s/^/$1x$2 /"; }
{
for h in 1 0; do
for NKCP in "8192 8192 128 4" "8192 28672 128 4" "28672 8192 112 1" "28672 8192 132 2"; do
  set -- $NKCP
  N=$1 K=$2 C=$3 P=$4
  r $N $K $h 2 tma:256:64:8:1:$C:$P:64:16
  r $N $K $h 2 tma:256:128:4:1:$C:$P:64:16
  r $N $K $h 2 tma:256:128:5:1:$C:$P:64:16
  r $N $K $h 1 tma:256:128:4:1:$C:$P:128:16
  r $N $K $h 1 tma:256:128:5:1:$C:$P:128:16
done
done
} > $OUT/ring2.log 2>&1
cat $OUT/ring2.log
