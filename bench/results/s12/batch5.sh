#!/usr/bin/env bash
# session 12 batch 5: chunked stream-K, third version ("new": also one whole wave and the rest
# in quarters for 1..2 waves of tiles) -- GPU suite, memcheck on the streaming tests, A/B
# against main ("head" = 96101c3) on the shapes it changes, two rounds; then the mid and
# large suites of "new".
cd .device
for v in head new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 150 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for r in 1 2; do for v in head new; do
  run ab_$v $v --m 64,128,256 --n 28672 --k 8192 --iters 20
  run ab_$v $v --m 128 --n 28672 --k 28672 --iters 20
  run abwo_$v $v --m 128,256 --n 28672 --k 8192 --iters 20 --mode weight-only
done; done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16): round 1, round 2"
for f in ab abwo; do for v in head new; do
  echo "-- ${f}_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s)\n", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n -k3,3n | tr '\n' ';'; echo
done; done
timeout 150 ./new/mxgemm_bench --suite mid --iters 20 > $OUT/mid_mx.log 2>&1; echo "mid rc=$?"
timeout 150 ./new/mxgemm_bench --suite mid --iters 20 --mode weight-only > $OUT/mid_wo.log 2>&1; echo "mid wo rc=$?"
timeout 250 ./new/mxgemm_bench --suite large --iters 20 > $OUT/large_mx.log 2>&1; echo "large rc=$?"
for f in mid_mx mid_wo large_mx; do echo "-- $f"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log; echo; grep -A1 "geometric mean" $OUT/$f.log | tail -1; done
