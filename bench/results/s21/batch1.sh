#!/usr/bin/env bash
# Session 21 batch 1: GPU suite on head (0c9b9ed); the skinny / streaming crossover re-measured
# after the 128-K stages (--compare-kernel); 5 stages for the 16..64-row values tiles (st5) and
# the 1.20 whole-tile limit at 32 rows (im20) against head on the 224 MB weights, two rounds.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv > $OUT/gpu.txt
timeout 150 ./head/mxgemm_gpu_tests > $OUT/gpu_tests_head.log 2>&1; echo "gpu suite head rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_head.log | head -12
B=./head/mxgemm_bench
x() { timeout 100 $B "$@" >> $OUT/$LOG 2>&1 || echo "$LOG rc=$?"; }
LOG=cross_mx.log
for nk in "8192 8192" "28672 8192" "8192 28672" "4096 4096" "1024 8192"; do set -- $nk
  x --m 1,2,4,8 --n $1 --k $2 --iters 30 --compare-kernel streaming; done
for nk in "8192 8192" "4096 4096" "1024 8192"; do set -- $nk
  x --m 12,16 --n $1 --k $2 --iters 30 --compare-kernel streaming; done
LOG=cross_wo.log
for nk in "8192 8192" "4096 4096" "1024 8192"; do set -- $nk
  x --mode weight-only --m 1,2,4,8 --n $1 --k $2 --iters 30 --compare-kernel streaming; done
for nk in "28672 8192" "8192 28672"; do set -- $nk
  x --mode weight-only --m 1,8 --n $1 --k $2 --iters 30 --compare-kernel skinny; done
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in head st5 im20; do
    run mx $v --m 32,64 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 32,64 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 16,32,64 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 16,32,64 --n 8192 --k 28672 --iters 30
  done
done
echo "== crossover: shape us xfloor compare_ratio(>1: default faster)"
for f in cross_mx cross_wo; do echo "-- $f"; awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25, $22}' $OUT/$f.log; done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== variants: us/xfloor, rounds"
for f in mx mx2 wo wo2; do for v in head st5 im20; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
