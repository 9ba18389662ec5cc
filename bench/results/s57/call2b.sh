#!/bin/bash
# Session 57, call 2b (one command line on the warm H100 after call 2; output quoted in
# README.md): the ring spike's scale chunks grouped G = 1 / 2 / 4 / 8 128-K steps a TMA
# (RING_SCALES=G; 0: none), the 128-row tile's stages and 256-row weight tiles, 8192^2 and 28672 x
# 8192; then weight only with scales, 5 stages, and one K part. Carry [".device/s57b"].
R=.device/s57b/ring_stream; for n in 8192 28672; do for s in 0 1 2 4 8; do RING_SCALES=$s RING_N=$n RING_K=8192 RING_CLEAN_FLUSH=1 $R tma:128:128:4:1:128:2:128:128 tma:256:128:3:1:128:4:128:128 | grep tma; done; done; RING_SCALES=1 RING_N=8192 RING_K=8192 RING_CLEAN_FLUSH=1 $R tma:128:128:4:1:128:2:128:0 tma:128:128:5:1:128:2:128:0 tma:128:128:4:1:128:1:128:128 | grep tma
