#!/usr/bin/env bash
# session 11 batch 6: the committed change (codes-form fragments converted from register
# halves; "new") -- GPU suite, memcheck and racecheck, and a same-run A/B against the session's
# start ("head") on the shapes that run the codes form (M = 9..16 on 224 MB weights; M = 1, 8
# through --compare-kernel streaming), then the decode suite.
cd .device
for v in head new; do for b in mxgemm_bench mxgemm_gpu_tests; do [ -f $v/$b.xz ] && xz -d -c $v/$b.xz > $v/$b && chmod +x $v/$b; done; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 170 ./new/mxgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/gpu_tests.log | head -8
timeout 150 compute-sanitizer --tool memcheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*:GpuGemm.ScalesOutside*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | tail -3
timeout 100 compute-sanitizer --tool racecheck ./new/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|PASSED|FAILED" $OUT/racecheck.log | tail -3
run() { local name=$1 bin=$2; shift 2; timeout 90 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1 || echo "$name rc=$?"; }
for r in 1 2; do for v in head new; do
  run ab_$v $v --m 9,12,16 --n 28672 --k 8192 --iters 30
  run ab_$v $v --m 16 --n 8192 --k 28672 --iters 30
  run ab_$v $v --m 1,8 --n 28672 --k 8192 --iters 30 --compare-kernel streaming
done; done
echo "== per shape: mxgemm us, then the comparison column's us (streaming kernel where forced), each run"
for v in head new; do echo "-- $v"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s %s\n", $1"x"$2"x"$3, $5, $20}' $OUT/ab_$v.log | awk '{a[$1]=a[$1]" "$2"/"$3} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n; done
timeout 170 ./new/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx.log 2>&1; echo "decode rc=$?"
grep -A3 "geometric mean" $OUT/decode_mx.log | head -4
