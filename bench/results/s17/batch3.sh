#!/usr/bin/env bash
# Session 17 batch 3 (device; build first with build_variants.sh with TRACE=1, carry [".device"]):
# the kept form of the early fixup (early_fixup.patch: the streaming kernel only, two-part
# tiles, the test switch) against main: the GPU suite, memcheck of the streaming tests,
# same-run A/B on the streaming kernel's 224 MB and mid shapes (two rounds), timelines at M = 32.
cd .device/s17v
for d in */; do for f in $d*.xz; do [ -e "${f%.xz}" ] || xz -d -k $f; chmod +x ${f%.xz}; done; done
timeout 240 ./early/mxgemm_gpu_tests > $OUT/gpu_tests_early.log 2>&1; echo "gpu suite early rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|EarlyFixup" $OUT/gpu_tests_early.log | head -8
timeout 240 compute-sanitizer --tool memcheck ./early/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.EarlyFixup*:GpuStreamGemm.SplitTiles*' > $OUT/memcheck_early.log 2>&1
echo "memcheck rc=$?: $(grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_early.log | tr '\n' ' ')"
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in base early; do
    run mx $v --m 16,32,64,128 --n 28672 --k 8192 --iters 30
    run mx $v --m 16,32 --n 8192 --k 28672 --iters 30
    run mx $v --m 128,256 --n 8192 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,8,16,32,64 --n 28672 --k 8192 --iters 30
    run wo $v --mode weight-only --m 16,32 --n 8192 --k 8192 --iters 30
  done
done
export MXGEMM_TRACE=1
for v in base early; do
  timeout 100 ./${v}_trace/mxgemm_bench --m 32 --n 28672 --k 8192 --iters 20 > $OUT/tr_mx_$v.log 2>&1
done
unset MXGEMM_TRACE
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in mx wo; do for v in base early; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
for v in base early; do
  echo "-- tr_mx $v (last 2 launches)"
  grep -E "^TRACE m=32 n=28672" $OUT/tr_mx_$v.log | tail -n 2 | grep -oE "\| (end|prestore_ns) [^|]*" | tr -d '|' | tr '\n' ';'; echo
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
