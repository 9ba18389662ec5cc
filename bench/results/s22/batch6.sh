#!/usr/bin/env bash
# Session 22 batch 6: f = 5ddbfbf, the session's committed kernels and crossover: GPU suite,
# decode suites (both modes).
cd .device/s22
for f in */*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 100 ./f/mxgemm_gpu_tests > $OUT/gpu_tests_f.log 2>&1; echo "gpu suite f rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_f.log | head -12
timeout 70 ./f/mxgemm_bench --suite decode --iters 30 > $OUT/decode_mx_f.log 2>&1 || echo "decode mx rc=$?"
timeout 70 ./f/mxgemm_bench --mode weight-only --suite decode --iters 30 > $OUT/decode_wo_f.log 2>&1 || echo "decode wo rc=$?"
for f in $OUT/decode_*.log; do echo "$(basename $f) $(grep -A1 'geometric mean' $f | tail -1)"; done
for s in decode_mx decode_wo; do echo "-- $s"; awk '$4=="|" && $1+0>0 {print $1"x"$2"x"$3, $5, $10, $18, $25}' $OUT/${s}_f.log | sort -t x -k2,2n -k3,3n -k1,1n; done
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
