#!/usr/bin/env bash
# session 14 batch 8: weight-only large-M shapes whose suite times moved by 7-21% against
# session 12 (b7_suites): the same-run A/B of 9e5aa3a ("new") against 61930a1 ("base"), two rounds.
cd .device
for v in base new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run wo_$v $v --m 2048 --n 4096 --k 4096 --iters 20 --mode weight-only
  run wo_$v $v --m 4096,8192 --n 28672 --k 8192 --iters 20 --mode weight-only
  run wo_$v $v --m 16384 --n 8192 --k 8192 --iters 20 --mode weight-only
done; done
for v in base new; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/wo_$v.log; echo; done
