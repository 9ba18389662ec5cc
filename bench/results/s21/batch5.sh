#!/usr/bin/env bash
# Session 21 batch 5: ln = fin + the values form's lean scale decode (E8M0 bytes shifted into
# bf16 exponents, lanes read by the multiply itself; bytes 0 / 0xFF with nonzero codes to the
# exact path): GPU suite and memcheck of the NaN / out-of-window tests on ln; ln against fin
# at 16..256 rows and large M, two rounds; mid suites of both.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./ln/mxgemm_gpu_tests > $OUT/gpu_tests_ln.log 2>&1; echo "gpu suite ln rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_ln.log | head -12
timeout 200 compute-sanitizer --tool memcheck ./ln/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.NanPropagates*:GpuWeightOnly.WeightScalesOutside*:GpuGemm.NaN*:GpuStreamGemm.HalvesOfTheK*' > $OUT/memcheck_ln.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_ln.log | head -5
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in fin ln; do
    run mx $v --m 32,64 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 32,64 --n 8192 --k 28672 --iters 30
    run wo $v --mode weight-only --m 16,32,64 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 16,32,64 --n 8192 --k 28672 --iters 30
    run mid $v --m 128,256 --n 8192 --k 8192 --iters 30
    run wmid $v --mode weight-only --m 128,256 --n 8192 --k 8192 --iters 30
    run big $v --m 2048,8192 --n 8192 --k 8192 --iters 20
    run wbig $v --mode weight-only --m 2048,8192 --n 8192 --k 8192 --iters 20
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$10}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== ln against fin: us/x cuBLAS bf16, rounds"
for f in mx mx2 wo wo2 mid wmid big wbig; do for v in fin ln; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
