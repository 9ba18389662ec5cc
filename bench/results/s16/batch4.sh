#!/usr/bin/env bash
# session 16 batch 4: the streaming kernel's stream-K fixup publishes a CTA's partial with one
# release by math thread 0 after the barrier (and reads after its acquire) instead of a
# __threadfence in every math thread on each side (uncommitted, "new") against a7ff1c4 ("base"):
# GPU suite, A/B on shapes with split tiles, two rounds.
cd .device/s16
for f in *.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./gpu_tests_new > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $OUT/gpu_tests.log | head
run() { local name=$1 bin=$2; shift 2; timeout 100 ./$bin "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in base new; do
  run ab_$v bench_$v --m 16,32,64 --n 8192,28672 --k 8192 --iters 30
  run ab_$v bench_$v --m 16,32,64 --n 8192 --k 28672 --iters 30
  run ab_$v bench_$v --m 32,64 --n 4096 --k 4096 --iters 30
  run ab_$v bench_$v --m 128,512,1024 --n 8192 --k 8192 --iters 20
  run abwo_$v bench_$v --mode weight-only --m 1,8,16,32,64 --n 8192,28672 --k 8192 --iters 30
  run abwo_$v bench_$v --mode weight-only --m 1,16,64 --n 8192 --k 28672 --iters 30
done; done
for f in ab abwo; do for v in base new; do echo "-- $f $v"; awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5}' $OUT/${f}_$v.log | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; done; done
