#!/usr/bin/env bash
# session 13 batch 8: timing-only ablation: the values form's weight fragment from four 8-byte
# loads in the permuted K order (load_fragment_permuted) instead of sixteen 2-byte loads in the
# natural order ("perm": results wrong by design, the bench's checks fail) against the
# committed code ("head").
cd .device
for v in new perm; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
run() { local name=$1 bin=$2; shift 2; timeout 150 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in new perm; do
  run ab_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 128,256 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 4096 --n 8192 --k 8192 --iters 20
done
for v in new perm; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
