#!/usr/bin/env bash
# Session 24 batch 6: h4 = the committed build (591582f). GPU suite; large suites, both modes.
cd .device/s24
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./h4/mxgemm_gpu_tests > $OUT/gpu_tests_h4.log 2>&1; echo "gpu suite rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_h4.log | head -12
grep "margin" $OUT/gpu_tests_h4.log | grep "first 32" | grep -E "fp32|same-sign"
timeout 100 ./h4/mxgemm_bench --suite large --iters 20 > $OUT/large_mx.log 2>&1 || echo "large mx rc=$?"
timeout 100 ./h4/mxgemm_bench --mode weight-only --suite large --iters 20 > $OUT/large_wo.log 2>&1 || echo "large wo rc=$?"
for f in $OUT/large_*.log; do echo "$(basename $f)"; awk '$4=="|" && $1+0>0 {print "  ", $1"x"$2"x"$3, $5, $6, $10}' $f; grep -A2 'geometric mean' $f | head -3; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
