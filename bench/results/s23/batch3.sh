#!/usr/bin/env bash
# Session 23 batch 3: s = ad6b6bb + the split's loops unserialized (its own one-item walk, no
# promotion in its values forms, two fragments, a local scale bound). GPU suite on s; memcheck
# and racecheck of the split tests; decode suites of head and s in one run; the split's shapes.
cd .device/s23
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./s/mxgemm_gpu_tests > $OUT/gpu_tests_s.log 2>&1; echo "gpu suite s rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_s.log | head -12
grep "margin" $OUT/gpu_tests_s.log | grep "split K"
timeout 150 compute-sanitizer --tool memcheck ./s/mxgemm_gpu_tests --gtest_filter='*SplitKAmong*:*SplitKIsTaken*' > $OUT/memcheck_s.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_s.log | head -4
timeout 150 compute-sanitizer --tool racecheck ./s/mxgemm_gpu_tests --gtest_filter="GpuWeightOnly.SplitKAmong*" > $OUT/racecheck_s.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck_s.log | head -4
for v in head s; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
done
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in head s; do
  run p $v --m 12,20,24 --n 8192 --k 8192,28672 --iters 30
  run w $v --mode weight-only --m 1,8,16,32 --n 8192 --k 2048,4096 --iters 30
done
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
echo "== shape head_us s_us s_xfloor change (changed > 1% only)"
for s in decode_mx decode_wo p w; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_head.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/${s}_s.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; if (d>1||d<-1) printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
