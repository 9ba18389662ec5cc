#!/usr/bin/env bash
# Session 21 batch 6: c = 9d30774 (the session's last kernel commit): GPU suite, memcheck of
# the NaN / out-of-window / K-tail tests, decode and mid suites of head (0c9b9ed) and c in one
# run, pf32 (c + the promoted sum in shared memory at 32 rows too) against c, and the Python
# package's tests on this tree.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./c/mxgemm_gpu_tests > $OUT/gpu_tests_c.log 2>&1; echo "gpu suite c rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_c.log | head -12
timeout 200 compute-sanitizer --tool memcheck ./c/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.NanPropagates*:GpuWeightOnly.WeightScalesOutside*:GpuGemm.NaN*:GpuStreamGemm.HalvesOfTheK*' > $OUT/memcheck_c.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_c.log | head -5
for v in head c; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --suite mid --iters 20 > $OUT/mid_mx_$v.log 2>&1 || echo "mid mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite mid --iters 20 > $OUT/mid_wo_$v.log 2>&1 || echo "mid wo $v rc=$?"
done
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in c pf32; do
  run p32 $v --m 20,32 --n 28672 --k 8192 --iters 30
  run p32b $v --m 20,32 --n 8192 --k 28672 --iters 30
  run w32 $v --mode weight-only --m 20,32 --n 28672 --k 8192 --iters 30
  run w32b $v --mode weight-only --m 20,32 --n 8192 --k 28672 --iters 30
done
cd ../..
bash bench/device/python_tests.sh $OUT > $OUT/python_run.log 2>&1; echo "python rc=$?"; tail -1 $OUT/pytest.log
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log $OUT/mid_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
echo "== decode and mid: shape head_us c_us c_xfloor change"
for s in decode_mx decode_wo mid_mx mid_wo; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/${s}_c.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
echo "== pf32 against c: us/xfloor"
for f in p32 p32b w32 w32b; do for v in c pf32; do echo "-- $f $v $(awk '$4=="|" && $1+0>0 {printf "%s %s/%s  ", $1"x"$2"x"$3, $5, $25}' $OUT/${f}_$v.log)"; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
