#!/usr/bin/env bash
# Session 19 batch 1: TMA ring spikes for N = 8192 (whole 64-row tiles with K split among
# warpgroups vs 256-row tiles in K quarters), and the bench at head with peers.
cd .device/s19
for f in spike/*.xz head/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
{
for NK in "8192 28672" "8192 8192"; do
  set -- $NK
  RING_N=$1 RING_K=$2 $S tma:256:64:8:1:128:4:64:16 tma:64:256:8:1:128:1:64:16 tma:256:64:8:1:128:4:64:0 tma:64:256:8:1:128:1:64:0 \
     tma:64:256:8:1:128:1:256:0 tma:64:128:8:1:128:1:64:16 tma:64:256:6:1:128:1:64:16 tma:64:512:4:1:128:1:64:16 \
     tma:256:64:8:1:128:4:64:16 tma:64:256:8:1:128:1:64:16
done
RING_N=28672 RING_K=8192 $S tma:256:64:8:1:112:1:64:16 tma:64:256:8:1:132:1:64:16 tma:256:64:8:1:112:1:64:0
} > $OUT/ring.log 2>&1
./spike/read_floor 64 224 > $OUT/read_floor.log 2>&1
B=./head/mxgemm_bench
$B --m 1,8,16 --n 8192 --k 28672,8192 --iters 30 --compare-kernel streaming > $OUT/bench_mx.log 2>&1
$B --mode weight-only --m 1,8,16 --n 8192 --k 28672,8192 --iters 30 --compare-kernel streaming > $OUT/bench_wo.log 2>&1
cat $OUT/ring.log $OUT/read_floor.log
for f in mx wo; do echo "-- $f"; awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, "us", $5, "bf16x", $10, "fp8lt_us", $16, "fp8x", $18, "cmp_us", $20, "floor", $25}' $OUT/bench_$f.log; done
