#!/usr/bin/env bash
# Session 20 batch 7: x = fin with the codes form's sub-stage-1 fragment offsets written as
# sub-stage 0's with bit 6 flipped (sub_stage_offset, as the values form): GPU suite on x; the
# codes-form shapes, fin against x, two rounds.
cd .device/s20
for f in fin/*.xz x/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 120 ./x/mxgemm_gpu_tests > $OUT/gpu_tests_x.log 2>&1; echo "gpu suite x rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_x.log | head -12
run() { local name=$1 v=$2; shift 2; timeout 60 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in fin x; do
    run mx $v --m 12,16 --n 8192 --k 28672 --iters 30
    run mx2 $v --m 16 --n 28672 --k 8192 --iters 30
    run wo $v --mode weight-only --m 1,8 --n 28672 --k 8192 --iters 30
    run wo2 $v --mode weight-only --m 1,8 --n 8192 --k 28672 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s\n", $1"x"$2"x"$3, $5"/"$25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n; }
for f in mx mx2 wo wo2; do for v in fin x; do echo "-- $f $v"; table $OUT/${f}_$v.log; done; done
grep -l "FAIL" $OUT/*.log | head
(cd $OUT && tar czf logs.tgz *.log && rm -f *_*.log)
