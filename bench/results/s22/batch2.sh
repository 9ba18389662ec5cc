#!/usr/bin/env bash
# Session 22 batch 2: what the split reduction costs at 8192^2 and 8192 x 28672 (32 weight tiles
# x 4 K parts on 128 CTAs). ns = 6be302c; nored = ns without the reduction kernel's launch
# (MXGEMM_EXP_NORED: outputs wrong, timing only); fix4 = ns with the 4 parts summed by the
# in-kernel fixup (no split reduction). And the TMA ring spike: the kernel's pattern (256 rows
# x 128 B stages, K quarters on 128 CTAs) against 64-row tiles over the whole K on 128 CTAs.
cd .device/s22
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=$1 RING_K=$2 RING_HINT=1 RING_SWZ=1 $S $3 | tail -1 | sed "s/^/$1x$2 $3 /"; }
{
for NK in "8192 8192" "8192 28672"; do set -- $NK
  r $1 $2 tma:256:128:4:1:128:4:128:16
  r $1 $2 tma:64:512:4:1:128:1:128:16
  r $1 $2 tma:64:256:8:1:128:1:128:16
  r $1 $2 tma:64:128:12:1:128:1:128:16
  r $1 $2 tma:256:128:4:1:128:4:128:32
  r $1 $2 tma:64:512:3:1:128:1:128:32
done
} > $OUT/ring.log 2>&1
cat $OUT/ring.log
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do for v in ns nored fix4; do
  export -n MXGEMM_EXP_NORED; [ $v = nored ] && export MXGEMM_EXP_NORED=1
  run p $v --m 1,8,16,32 --n 8192 --k 8192 --iters 30
  run w $v --mode weight-only --m 1,8,16,32 --n 8192 --k 8192 --iters 30
  run pb $v --m 16,32 --n 8192 --k 28672 --iters 30
  run wb $v --mode weight-only --m 16,32 --n 8192 --k 28672 --iters 30
done; done
unset MXGEMM_EXP_NORED
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== rounds: us/xfloor"
for f in p w pb wb; do for v in ns nored fix4; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
