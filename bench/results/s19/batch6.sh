#!/usr/bin/env bash
# Session 19 batch 6: v2 (the working tree: the 16-row codes form watches the weight, its
# look-up after the loop; weight-only 9..16 rows in that form; the watch folded into a word in
# the codes forms; the skinny weight map's 128B promotion) against v1 (788fd0b + the skinny
# promotion) and ef (788fd0b): GPU suite and memcheck of the new tests on v2, decode suites
# ef vs v2, the mid suite head vs ef, the changed shapes two rounds.
cd .device/s19
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 170 ./v2/mxgemm_gpu_tests > $OUT/gpu_tests_v2.log 2>&1; echo "gpu suite v2 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_v2.log | head -8
timeout 120 compute-sanitizer --tool memcheck ./v2/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.SixteenRow*:GpuStreamGemm.CodesForms*' > $OUT/memcheck_v2.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck_v2.log | head -4
run() { local name=$1 v=$2; shift 2; timeout 120 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for v in ef v2; do
  run decmx $v --suite decode --iters 30
  run decwo $v --mode weight-only --suite decode --iters 30
done
for v in head ef; do run mid $v --suite mid --iters 30; done
for round in 1 2; do
  for v in ef v1 v2; do
    run wo $v --mode weight-only --m 1,8,9,12,16 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 12,16 --n 8192 --k 28672,8192 --iters 30
    run mx $v --m 1,8,12,16 --n 28672 --k 8192 --iters 30
    run mx2 $v --m 1,16 --n 8192 --k 28672,8192 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
geo() { grep -A1 "geometric mean" $1 | tail -1 | tr -s ' '; }
for f in decmx decwo; do echo "== $f ef -> v2"; join <(table $OUT/${f}_ef.log) <(table $OUT/${f}_v2.log) | awk '{print $1, $2, "->", $3}'; geo $OUT/${f}_ef.log; geo $OUT/${f}_v2.log; done
echo "== mid head -> ef"; join <(table $OUT/mid_head.log) <(table $OUT/mid_ef.log) | awk '{print $1, $2, "->", $3}'; geo $OUT/mid_head.log; geo $OUT/mid_ef.log
for f in wo wo2 mx mx2; do for v in ef v1 v2; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
