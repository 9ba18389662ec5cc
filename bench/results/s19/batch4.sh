#!/usr/bin/env bash
# Session 19 batch 4: the weight's TMA loads with an L2 evict_first policy. Skinny kernel:
# sk1 every unit, sk2 the second 128-byte unit of each 256-byte line. Streaming kernel: st1
# every stage, st2 the last 64-byte stage of each 256-byte line. Against head, two rounds.
cd .device/s19
for f in spike/*.xz */mxgemm_bench.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=$1 RING_K=$2 RING_SWZ=$3 RING_HINT=$4 $S $5 | tail -1 | sed "s/^/$1x$2 /"; }
{
for h in 0 5 1; do
  r 8192 8192 2 $h tma:256:64:8:1:128:4:64:0
  r 8192 28672 2 $h tma:256:64:8:1:128:4:64:0
  r 28672 8192 2 $h tma:256:64:8:1:112:1:64:0
  r 8192 8192 0 $h tma:16:128:40:1:128:1:128:0
  r 8192 8192 0 $h tma:64:128:16:1:128:1:128:0
done
} > $OUT/ring4.log 2>&1
cat $OUT/ring4.log
run() { local name=$1 v=$2; shift 2; timeout 90 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in head sk1 sk2; do
    run skmx $v --m 1,8 --n 8192,28672 --k 8192 --iters 30
    run skmx2 $v --m 1,8 --n 8192 --k 28672 --iters 30
    run skmx3 $v --m 16 --n 8192 --k 8192 --iters 30
    run skwo $v --mode weight-only --m 1,8 --n 8192 --k 8192 --iters 30
  done
  for v in head st1 st2; do
    run stmx $v --m 12,16,32,64 --n 28672 --k 8192 --iters 30
    run stmx2 $v --m 16,32 --n 8192 --k 28672 --iters 30
    run stwo $v --mode weight-only --m 1,8,16,32,64 --n 28672 --k 8192 --iters 30
    run stwo2 $v --mode weight-only --m 16,64 --n 8192 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort; }
for f in skmx skmx2 skmx3 skwo; do for v in head sk1 sk2; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
for f in stmx stmx2 stwo stwo2; do for v in head st1 st2; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL\|mismatch" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
