#!/usr/bin/env bash
# session 11 batch 3: half-stage commit groups in the one-fragment values loop (M <= 32 values
# form), unsigned fragment scale offsets, codes fragments from register halves ("new") against
# the session's starting commit ("head"); new with the codes form at 32 rows (codes32=1) once.
cd .device
for v in head new; do for b in mxgemm_bench mxgemm_gpu_tests; do [ -f $v/$b.xz ] && xz -d -c $v/$b.xz > $v/$b && chmod +x $v/$b; done; done
timeout 100 ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.*:GpuWeightOnly.*' > $OUT/tests_new.log 2>&1; echo "tests new rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/tests_new.log | head -8
run() { local name=$1 envs=$2 bin=$3; shift 3; env $envs timeout 90 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1 || echo "$name rc=$?"; }
S1="--m 16,24,32 --n 8192,28672 --k 8192 --iters 30"
S2="--m 16,32 --n 8192 --k 28672 --iters 30"
S3="--m 32 --n 4096 --k 4096 --iters 30"
W1="--m 12,16,32 --n 8192,28672 --k 8192 --iters 30 --mode weight-only"
for r in 1 2; do for S in "$S1" "$S2" "$S3"; do
  run mx_head "" head $S; run mx_new MXGEMM_DEV_CODES32=0 new $S
done; run wo_head "" head $W1; run wo_new "" new $W1; done
for S in "$S1" "$S2"; do run mx_codes32 MXGEMM_DEV_CODES32=1 new $S; done
M1="--m 64,128 --n 8192,28672 --k 8192 --iters 20"
run mid_head "" head $M1; run mid_new "" new $M1; run mid_head "" head $M1 --mode weight-only; run mid_new "" new $M1 --mode weight-only
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16), each run"
for f in mx_head mx_new mx_codes32 wo_head wo_new mid_head mid_new; do
  echo "-- $f"; awk '/^mode|weight-only GEMM|MXFP8 inputs/{} /^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s %s\n", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log | awk '{a[$1]=a[$1]" "$2"("$3")"} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n
done
