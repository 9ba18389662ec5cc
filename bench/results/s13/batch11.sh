#!/usr/bin/env bash
# session 13 batch 11: same-run A/B of the committed code ("final", 1d0d355) against the
# session's start ("head", 53803b1) at large M, where the permuted pre-pass's extra shuffles
# could cost: 4096 x 8192 x 28672, 8192^3, 16384 x 8192 x 8192, two rounds.
cd .device
for v in head final; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in head final; do
  run ab_$v $v --m 4096 --n 8192 --k 28672 --iters 20
  run ab_$v $v --m 8192,16384 --n 8192 --k 8192 --iters 20
done; done
for v in head final; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
