#!/usr/bin/env bash
# session 13 batch 12: after building only the fragment offsets of the instance's K order
# ("fix"; 1d0d355 pinned both, four registers more in every values-form kernel): its GPU
# stream tests, and the same-run A/B against the session's start ("head", 53803b1), two rounds.
cd .device
for v in head fix; do for f in $v/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done; done
timeout 100 ./fix/mxgemm_gpu_tests --gtest_filter='GpuStreamGemm.*:GpuGemm.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED) " $OUT/tests.log
run() { local name=$1 bin=$2; shift 2; timeout 200 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1; echo "$name rc=$?"; }
for round in 1 2; do for v in head fix; do
  run ab_$v $v --m 4096 --n 8192 --k 28672 --iters 20
  run ab_$v $v --m 512,1024,4096 --n 8192 --k 8192 --iters 20
done; done
for v in head fix; do echo "-- $v"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/ab_$v.log; echo; done
