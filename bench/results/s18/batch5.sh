#!/usr/bin/env bash
# Session 18 batch 5 (device; carry [".device"]): split-reduction shapes with every CTA on one
# whole part of a tile's K (split_aligned_parts.patch: 8192 x 28672 as 32 tiles x 4 quarters
# on 128 CTAs, 8192 x 8192 as 32 x 4, 4096 x 4096 as 16 x 8), against final (aefe7c1's
# kernels, = HEAD). GPU suite on split, then a same-run A/B, two rounds.
cd .device/s18v
for f in final/*.xz split/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./split/mxgemm_gpu_tests > $OUT/gpu_tests_split.log 2>&1; echo "gpu suite split rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_split.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in final split; do
    run mx $v --m 12,16,32 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 1,8,16,32 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 16,32 --n 8192,4096 --k 8192,4096 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for v in final split; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
