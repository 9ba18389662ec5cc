#!/usr/bin/env bash
# session 11 batch 1: codes form at 32 rows (4 warpgroups, one fragment: base; 2 warpgroups,
# two fragments: exp) against the values form (base with MXGEMM_DEV_CODES32=0); 128-row tiles
# on 4 warpgroups without promotion (exp) against the 2-warpgroup promoted tiles (base).
cd .device
for v in base exp; do for b in mxgemm_bench mxgemm_gpu_tests; do xz -d -c $v/$b.xz > $v/$b; chmod +x $v/$b; done; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
F='GpuStreamGemm.*:GpuGemm.*:GpuWeightOnly.*'
for v in base exp; do
  timeout 100 ./$v/mxgemm_gpu_tests --gtest_filter="$F" > $OUT/tests_$v.log 2>&1; echo "tests $v rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/tests_$v.log | head -8
done
S1="--m 24,32 --n 8192,28672 --k 8192 --iters 30"
S2="--m 24,32 --n 8192 --k 28672 --iters 30"
S3="--m 32 --n 1024,4096 --k 8192,4096 --iters 30"
run() { # name env binary args...
  local name=$1 envs=$2 bin=$3; shift 3
  env $envs timeout 90 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1 || echo "$name rc=$?"
}
for r in 1 2; do
  for S in "$S1" "$S2" "$S3"; do
    run codes_values MXGEMM_DEV_CODES32=0 base $S
    run codes_4wg MXGEMM_DEV_CODES32=1 base $S
    run codes_2wg MXGEMM_DEV_CODES32=1 exp $S
  done
done
M1="--m 80,128 --n 4096,8192,28672 --k 8192 --iters 20"
M2="--m 128 --n 8192 --k 28672 --iters 20"
for mode in mxfp8 weight-only; do
  for S in "$M1" "$M2"; do
    run m128_base_$mode "" base $S --mode $mode
    run m128_exp_$mode "" exp $S --mode $mode
  done
done
echo "== per shape: mxgemm us (column 5), ratio vs cuBLAS bf16 (column 10)"
for f in codes_values codes_4wg codes_2wg m128_base_mxfp8 m128_exp_mxfp8 m128_base_weight-only m128_exp_weight-only; do
  echo "-- $f"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s %s\n", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log | sort | awk '{a[$1]=a[$1]" "$2"("$3")"} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n
done
grep -h "FAIL" $OUT/*.log | head -5
