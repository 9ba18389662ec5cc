#!/usr/bin/env bash
# session 11 batch 5: speed of light of a cheaper weight conversion (timing only; the numbers
# are deliberately wrong): "sol" converts the weight by cvt.f16x2.e4m3x2 + mul.f16x2 (2 a pair,
# against 5 for the exact bf16 path) and runs fp16 wgmma, against "head" (the session's start).
cd .device
for v in head sol; do xz -d -c $v/mxgemm_bench.xz > $v/mxgemm_bench; chmod +x $v/mxgemm_bench; done
run() { local name=$1 bin=$2; shift 2; timeout 120 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in head sol; do
  run mx_$v $v --m 32,64,128,256 --n 8192,28672 --k 8192 --iters 20
  run wo_$v $v --m 16,32,128 --n 28672 --k 8192 --iters 20 --mode weight-only
  run big_$v $v --m 8192 --n 8192 --k 8192 --iters 20
done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16)"
for f in mx wo big; do for v in head sol; do
  echo "-- ${f}_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s)\n", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log
done; done
