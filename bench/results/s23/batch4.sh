#!/usr/bin/env bash
# Session 23 batch 4: p = s with the split's values forms promoting every 512 K of a part (two
# fragments, the sum in registers). GPU suite on p (with the long-K split tests and the whole
# tiles of long K); memcheck of the split tests; decode suites of head and p in one run.
cd .device/s23
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 300 ./p/mxgemm_gpu_tests > $OUT/gpu_tests_p.log 2>&1; echo "gpu suite p rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_p.log | head -12
grep "margin" $OUT/gpu_tests_p.log | grep -E "split K|first 32"
grep -E "OK \] .*(WholeTiles|SplitKValues)" $OUT/gpu_tests_p.log
timeout 150 compute-sanitizer --tool memcheck ./p/mxgemm_gpu_tests --gtest_filter='*SplitKAmong*:*SplitKIsTaken*' > $OUT/memcheck_p.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_p.log | head -4
for v in head p; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
done
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
echo "== shape head_us p_us p_xfloor change (changed > 1% only)"
for s in decode_mx decode_wo; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/${s}_p.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; if (d>1||d<-1) printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
