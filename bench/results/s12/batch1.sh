#!/usr/bin/env bash
# session 12 batch 1: ablations of the streaming kernel's values loop (timing only; wrong
# numbers by design). bench0: as main (96101c3). bench1: the weight's bytes loaded but not
# converted. bench2: no weight loads and no conversion (fragment from the scale words).
# bench3: no wgmma (conversion kept). bench4: neither loads, conversion nor wgmma: the
# pipeline (TMA, barriers, scales, epilogue) alone.
cd .device/abl
for v in 0 1 2 3 4; do xz -d -c bench$v.xz > bench$v; chmod +x bench$v; done
run() { local name=$1 bin=$2; shift 2; timeout 150 ./$bin "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for v in 0 1 2 3 4; do
  run mx_$v bench$v --m 32,128,256 --n 8192,28672 --k 8192 --iters 20
  run big_$v bench$v --m 4096 --n 8192 --k 8192 --iters 20
  run wo_$v bench$v --m 128 --n 28672 --k 8192 --iters 20 --mode weight-only
done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16)"
for f in mx big wo; do for v in 0 1 2 3 4; do
  echo "-- ${f}_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s)\n", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log | tr '\n' ' '; echo
done; done
