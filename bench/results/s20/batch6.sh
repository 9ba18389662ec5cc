#!/usr/bin/env bash
# Session 20 batch 6: the committed build (fin: 128-K stages for the codes form and tiles of up
# to 128 activation rows): GPU suite, memcheck of the streaming tests, decode suites, mid
# suites and FP32-out large M on the 128-row tiles against head; the Python package's tests.
cd .device/s20
for f in head/*.xz fin/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./fin/mxgemm_gpu_tests > $OUT/gpu_tests_fin.log 2>&1; echo "gpu suite fin rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_fin.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
run decmx fin --suite decode --iters 30
run decwo fin --mode weight-only --suite decode --iters 30
for v in head fin; do
  run mid $v --suite mid --iters 20
  run midwo $v --mode weight-only --suite mid --iters 20
  run f32 $v --m 2048 --n 8192 --k 28672 --mx-out fp32 --iters 20
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
geo() { grep -A3 "geometric mean" $1 | tail -3 | tr -s ' '; }
for f in decmx decwo; do echo "== $f fin"; geo $OUT/${f}_fin.log; done
for f in mid midwo f32; do for v in head fin; do echo "-- $f $v"; table $OUT/${f}_$v.log; geo $OUT/${f}_$v.log | head -1; done; done
grep -l "FAIL" $OUT/*.log | head
timeout 120 compute-sanitizer --tool memcheck ./fin/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*:GpuStreamGemm.HalvesOfTheK*:GpuStreamGemm.CodesFormWholeTiles*:GpuWeightOnly.NanPropagates*' > $OUT/memcheck_fin.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_fin.log | head -5
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
cd ../..
timeout 150 bash bench/device/python_tests.sh $OUT > $OUT/python_tests.out 2>&1; echo "python tests rc=$?"; tail -3 $OUT/python_tests.out
