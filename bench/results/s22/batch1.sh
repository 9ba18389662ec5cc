#!/usr/bin/env bash
# Session 22 batch 1: the GPU suite on head (06442b1: fe32480's NaN lines never ran on the
# device) and on ns (head + bench/results/s21/next_scale_base.patch); memcheck of the NaN
# tests on ns; decode suites of head and ns in one run, two rounds of the 16..64-row shapes.
cd .device/s22
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
for v in head ns; do
  timeout 150 ./$v/mxgemm_gpu_tests > $OUT/gpu_tests_$v.log 2>&1; echo "gpu suite $v rc=$?"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_$v.log | head -12
done
timeout 200 compute-sanitizer --tool memcheck ./ns/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.NanPropagates*:GpuWeightOnly.WeightScalesOutside*:GpuGemm.NaN*:GpuStreamGemm.HalvesOfTheK*' > $OUT/memcheck_ns.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_ns.log | head -5
for v in head ns; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
done
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do for v in head ns; do
  run p $v --m 16,32,64 --n 28672 --k 8192 --iters 30
  run w $v --mode weight-only --m 16,32,64 --n 28672 --k 8192 --iters 30
  run pb $v --m 32,64 --n 8192 --k 28672 --iters 30
  run wb $v --mode weight-only --m 32,64 --n 8192 --k 28672 --iters 30
done; done
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
echo "== decode: shape head_us ns_us ns_xfloor change"
for s in decode_mx decode_wo; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/${s}_ns.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== rounds: us/xfloor"
for f in p w pb wb; do for v in head ns; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
