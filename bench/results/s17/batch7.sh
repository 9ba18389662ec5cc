#!/usr/bin/env bash
# Session 17 batch 7 (device; carry [".device"]): the four-warpgroup kernels' wider chunking
# limit (whole_tiles_small_m.patch on 1c42555: kPhaseMaxImbalanceSmallM = 1.20, so 16 x 28672 x
# 8192 runs 112 whole tiles on 112 CTAs instead of 132 stream-K ranges). `head` is 1c42555.
# GPU suite on it, then same-run A/B, two rounds.
cd .device
for f in head/*.xz wide/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 240 ./wide/mxgemm_gpu_tests > $OUT/gpu_tests_wide.log 2>&1; echo "gpu suite wide rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_wide.log | head -5
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in head wide; do
    run mx $v --m 12,16,32 --n 28672 --k 8192 --iters 30
    run mx $v --m 16 --n 14336,8192 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,8,16,32 --n 28672 --k 8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for v in head wide; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
