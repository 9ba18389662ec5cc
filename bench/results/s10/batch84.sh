#!/usr/bin/env bash
# session 10 batch A: exp/skinny-conflict-free-s9 (rebased on a1d7d88) vs main a1d7d88
cd .device
timeout 150 ./cf/mxgemm_gpu_tests > $OUT/cf_gpu_tests.log 2>&1; echo "cf gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED" $OUT/cf_gpu_tests.log | head -8
for round in 1 2; do for v in main cf; do
  ./$v/mxgemm_bench --m 1,8,12,16 --n 8192,28672 --k 8192 --iters 30 > $OUT/${v}_mx_r$round.log 2>&1
  ./$v/mxgemm_bench --m 1,8,12,16 --n 8192 --k 28672 --iters 30 >> $OUT/${v}_mx_r$round.log 2>&1
  ./$v/mxgemm_bench --m 1,8 --n 8192,28672 --k 8192 --iters 30 --mode weight-only > $OUT/${v}_wo_r$round.tmp 2>&1
  cat $OUT/${v}_wo_r$round.tmp >> $OUT/${v}_mx_r$round.log
done; done
echo "== us (main r1 | cf r1 | main r2 | cf r2)"
for mode in mx wo; do
  paste <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $1"x"$2"x"$3, $5}' $OUT/main_${mode}_r1.* | head -100) \
        <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $5}' $OUT/cf_${mode}_r1.*) \
        <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $5}' $OUT/main_${mode}_r2.*) \
        <(awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{print $5}' $OUT/cf_${mode}_r2.*) | sed "s/^/$mode /"
done
rm -f $OUT/*.tmp
