#!/usr/bin/env bash
# Session 23 batch 1: v4 (64-row tiles on four warpgroups, promoted sum in shared memory) against
# head (ad6b6bb): GPU suite on v4; 40 and 64 rows on the decode suite's (N, K), both modes, two rounds.
cd .device/s23
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 120 ./v4/mxgemm_gpu_tests > $OUT/gpu_tests_v4.log 2>&1; echo "gpu suite v4 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_v4.log | head -12
for r in 1 2; do
  for v in head v4; do
    for mode in mxfp8 weight-only; do
      for nk in "28672 8192" "8192 28672" "8192 8192" "4096 4096" "1024 8192"; do
        set -- $nk
        timeout 60 ./$v/mxgemm_bench --mode $mode --m 40,64 --n $1 --k $2 --iters 30 >> $OUT/bench_${v}_${mode}_r$r.log 2>&1 || echo "rc=$? $v $mode $nk"
      done
    done
  done
done
echo "M N K mode | head r1 r2 | v4 r1 r2 (us)"
for mode in mxfp8 weight-only; do
  for r in 1 2; do for v in head v4; do
    awk -v t="$v$r" '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, t, $5}' $OUT/bench_${v}_${mode}_r$r.log; done; done > $OUT/t_$mode.txt
  awk -v m=$mode '{a[$1]=a[$1]" "$2"="$3} END {for (s in a) print m, s, a[s]}' $OUT/t_$mode.txt | sort
done
(cd $OUT && tar czf logs.tgz *.log *.txt && rm -f *.log *.txt)
