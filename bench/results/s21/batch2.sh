#!/usr/bin/env bash
# Session 21 batch 2: pf = the four-warpgroup values form with its promoted sum in shared
# memory and two fragments (convert the next sub-stage while the last one's wgmmas run): GPU
# suite on pf; pf against head at 9..32 rows, two rounds; the skinny / streaming crossover on
# weights between 32 and 117 MB (head, --compare-kernel).
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./pf/mxgemm_gpu_tests > $OUT/gpu_tests_pf.log 2>&1; echo "gpu suite pf rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_pf.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in head pf; do
    run mx $v --m 20,32 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 20,32 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 9,16,32 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 16,32 --n 8192 --k 28672 --iters 30
    run sm $v --m 32 --n 8192,4096,1024 --k 8192 --iters 30
    run wsm $v --mode weight-only --m 16,32 --n 8192,4096 --k 8192 --iters 30
  done
done
B=./head/mxgemm_bench
x() { timeout 100 $B "$@" >> $OUT/$LOG 2>&1 || echo "$LOG rc=$?"; }
LOG=cross_mx.log
for nk in "4096 8192" "8192 4096" "14336 4096" "4096 14336"; do set -- $nk
  x --m 1,8,12,16 --n $1 --k $2 --iters 30 --compare-kernel streaming; done
x --m 1,8 --n 14336 --k 8192 --iters 30 --compare-kernel streaming
x --m 12,16 --n 14336 --k 8192 --iters 30 --compare-kernel skinny
LOG=cross_wo.log
for nk in "4096 8192" "14336 4096" "4096 14336"; do set -- $nk
  x --mode weight-only --m 1,8 --n $1 --k $2 --iters 30 --compare-kernel streaming; done
x --mode weight-only --m 1,8 --n 14336 --k 8192 --iters 30 --compare-kernel skinny
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== pf against head: us/xfloor, rounds"
for f in mx mx2 wo wo2 sm wsm; do for v in head pf; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
echo "== crossover: shape us xfloor compare_ratio(>1: default faster)"
for f in cross_mx cross_wo; do echo "-- $f"; awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25, $22}' $OUT/$f.log; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
