#!/usr/bin/env bash
# Session 18 batch 6 (device; carry [".device"]): head = 32a932c + split reductions in equal
# parts of a tile (split_aligned_parts.patch, with its tests), against final (aefe7c1's
# kernels and schedule). GPU suite and memcheck of the split tests on head, then both decode
# suites on both builds, same run.
cd .device/s18v
for f in final/*.xz head/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./head/mxgemm_gpu_tests > $OUT/gpu_tests_head.log 2>&1; echo "gpu suite head rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_head.log | head -8
timeout 150 compute-sanitizer --tool memcheck ./head/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $OUT/memcheck_head.log 2>&1
echo "memcheck rc=$?: $(grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_head.log | tr '\n' ' ')"
run() { local name=$1 v=$2; shift 2; timeout 200 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in final head; do
  run decode_mx $v --suite decode --iters 30
  run decode_wo $v --suite decode --mode weight-only --iters 30
done
for f in decode_mx decode_wo; do for v in final head; do echo "-- $f $v: $(grep -A1 'geometric mean' $OUT/${f}_$v.log | tail -1)"; done; done
echo "-- changed rows (us final -> head, x floor head), M x N x K"
for f in decode_mx decode_wo; do
  paste <(awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5}' $OUT/${f}_final.log) <(awk '$4=="|" && $1+0>0 {print $5, $25}' $OUT/${f}_head.log) |
    awk -v f=$f '{d=($3-$2)/$2; if (d>0.015 || d<-0.015) printf "%s %s %s->%s (%s); ", f, $1, $2, $3, $4} END {print ""}'
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
