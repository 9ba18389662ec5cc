#!/usr/bin/env bash
# Session 22 batch 3: q = 6be302c + the split-reduction quarters in clusters of four
# (StreamSchedule::quads). GPU suite on q; memcheck and racecheck of the new tests; decode
# suites of ns (6be302c) and q in one run; two rounds of the quarter shapes.
cd .device/s22
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 150 ./q/mxgemm_gpu_tests > $OUT/gpu_tests_q.log 2>&1; echo "gpu suite q rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|SKIPPED \]" $OUT/gpu_tests_q.log | head -12
grep -A3 'QuartersInClusters' $OUT/gpu_tests_q.log | grep -E 'OK|FAILED|SKIP|Skipped' | head
F='*QuartersInClusters*'
timeout 150 compute-sanitizer --tool memcheck ./q/mxgemm_gpu_tests --gtest_filter="$F" > $OUT/memcheck_q.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_q.log | head -4
timeout 150 compute-sanitizer --tool racecheck ./q/mxgemm_gpu_tests --gtest_filter="GpuWeightOnly.QuartersInClusters*" > $OUT/racecheck_q.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck_q.log | head -4
for v in ns q; do
  timeout 100 ./$v/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_$v.log 2>&1 || echo "decode mx $v rc=$?"
  timeout 100 ./$v/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_$v.log 2>&1 || echo "decode wo $v rc=$?"
done
run() { local name=$1 v=$2; shift 2; timeout 80 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do for v in ns q; do
  run p $v --m 12,16,20,32 --n 8192 --k 8192 --iters 30
  run w $v --mode weight-only --m 1,8,16,32 --n 8192 --k 8192 --iters 30
  run pb $v --m 12,16,32 --n 8192 --k 28672 --iters 30
  run wb $v --mode weight-only --m 1,8,16,32 --n 8192 --k 28672 --iters 30
done; done
echo "== geomeans vs cuBLAS bf16"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
echo "== decode: shape ns_us q_us q_xfloor change (changed > 1% only)"
for s in decode_mx decode_wo; do echo "-- $s"; join <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${s}_ns.log | sort) <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $25}' $OUT/${s}_q.log | sort) | sort -t x -k2,2n -k3,3n -k1,1n | awk '{d=($3-$2)/$2*100; if (d>1||d<-1) printf "%s %s %s %s %+.1f%%\n",$1,$2,$3,$4,d}'; done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
echo "== rounds: us/xfloor"
for f in p w pb wb; do for v in ns q; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
