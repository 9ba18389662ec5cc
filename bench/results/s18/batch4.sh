#!/usr/bin/env bash
# Session 18 batch 4 (device; carry [".device"]): a cheaper weight watch for the 16-row codes
# form, with no look-up in global memory (a flagged item takes the exact path), so that 9..16
# weight-only rows can take that form too. w16: flags bytes outside the window but 0x00 and
# 0xFF; w16z: but 0x00 only. Both: weight-only up to 16 rows in the codes form. final: the
# committed aefe7c1. GPU suite on w16, then same-run A/B/C, two rounds; then the Python
# package built and tested on final.
root=$(pwd)
cd .device/s18v
for f in final/*.xz w16/*.xz w16z/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./w16/mxgemm_gpu_tests > $OUT/gpu_tests_w16.log 2>&1; echo "gpu suite w16 rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_w16.log | head -8
run() { local name=$1 v=$2; shift 2; timeout 100 ./$v/mxgemm_bench "$@" >> $OUT/${name}_$v.log 2>&1 || echo "$name $v rc=$?"; }
for round in 1 2; do
  for v in final w16 w16z; do
    run wo $v --mode weight-only --m 12,16 --n 28672 --k 8192 --iters 30
    run wo $v --mode weight-only --m 16 --n 8192 --k 28672,8192 --iters 30
    run mx $v --m 12,16 --n 28672 --k 8192 --iters 30
    run mx $v --m 16 --n 8192 --k 28672 --iters 30
  done
done
table() { awk '$4=="|" && $1+0>0 {printf "%s %s/%s\n", $1"x"$2"x"$3, $5, $25}' $1 | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | sort -t x -k2,2n -k3,3n -k1,1n | tr '\n' ';'; echo; }
for f in wo mx; do for v in final w16 w16z; do echo "-- $f $v (us/x floor, rounds 1 2)"; table $OUT/${f}_$v.log; done; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
# The Python package of the tree this call runs in (the committed aefe7c1), built and tested.
cd "$root"
timeout 330 bash bench/device/python_tests.sh $OUT > /dev/null 2>&1; echo "python tests rc=$?: $(grep -E 'passed|failed' $OUT/pytest.log | tail -1)"
