#!/usr/bin/env bash
# Session 21 batch 4: fin (= 63a5b32: the 16-row values form's promoted sum in shared memory
# with two fragments, and the re-measured skinny / streaming crossover): GPU suite, memcheck
# of the weight-only tests that run the 16-row values form, decode suites of head and fin in
# both modes, ncu (full, source counters) of weight-only 32 x 28672 x 8192 on head, and the
# Python package's tests on this tree.
cd .device/s21
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./fin/mxgemm_gpu_tests > $OUT/gpu_tests_fin.log 2>&1; echo "gpu suite fin rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_fin.log | head -12
timeout 240 compute-sanitizer --tool memcheck ./fin/mxgemm_gpu_tests --gtest_filter='GpuWeightOnly.SmallMOnBothKernels:GpuWeightOnly.NanPropagates*:GpuWeightOnly.StagedStore*' > $OUT/memcheck_fin.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_fin.log | head -5
for v in head fin; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
done
timeout 150 ncu --kill yes -k regex:stream_gemm --launch-skip 2 -c 1 --set full --import-source no -o $OUT/wo32 ./head/mxgemm_bench --mode weight-only --m 32 --n 28672 --k 8192 --iters 20 > $OUT/ncu_run.log 2>&1; echo "ncu rc=$?"
ncu -i $OUT/wo32.ncu-rep --page details > $OUT/ncu_wo32_details.log 2>&1
ncu -i $OUT/wo32.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $OUT/wo32_source.csv.gz
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Issue Slots Busy|No Eligible|Eligible Warps|Warp Cycles Per Issued|Registers Per" $OUT/ncu_wo32_details.log | sed 's/  */ /g' | head -12
cd ../..
bash bench/device/python_tests.sh $OUT > $OUT/python_run.log 2>&1; echo "python rc=$?"; tail -3 $OUT/pytest.log
echo "== decode suites: geomean lines"
for f in $OUT/decode_*.log; do echo "-- $f"; grep -i -E "geomean|geometric" $f | head -4; done
echo "== decode: shape head_us fin_us (xfloor fin)"
for m in mx wo; do echo "-- $m"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/decode_${m}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/decode_${m}_fin.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
