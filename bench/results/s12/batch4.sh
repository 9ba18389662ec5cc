#!/usr/bin/env bash
# session 12 batch 4: chunked stream-K, second version ("new": whole tiles or halves only,
# one division fewer in the kernel) -- GPU suite, memcheck and racecheck on the split and
# stream-K tests, A/B against main ("head" = 96101c3) two rounds, and the decode suite.
cd .device
for v in head new; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 200 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 150 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.ScalesOutside*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 120 compute-sanitizer --tool racecheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*:GpuStreamGemm.*Deterministic*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for r in 1 2; do for v in head new; do
  run ab_$v $v --m 128,256,512,1024 --n 8192 --k 8192 --iters 20
  run ab_$v $v --m 128,256 --n 28672,8192 --k 28672,8192 --iters 20
  run ab_$v $v --m 2048 --n 4096,8192 --k 4096,8192 --iters 20
  run ab_$v $v --m 16,32,64 --n 8192,28672 --k 8192 --iters 30
  run abwo_$v $v --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20 --mode weight-only
done; done
timeout 200 ./new/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx.log 2>&1; echo "decode rc=$?"
grep -A3 "geometric mean" $OUT/decode_mx.log | head -4
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16): round 1, round 2"
for f in ab abwo; do for v in head new; do
  echo "-- ${f}_$v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s(%s)\n", $1"x"$2"x"$3, $5, $10}' $OUT/${f}_$v.log | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n -k3,3n | tr '\n' ';'; echo
done; done
