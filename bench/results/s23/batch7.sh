#!/usr/bin/env bash
# Session 23 batch 7: h = the committed build (split K unserialized; 256-row tiles promoted into
# global memory after 8192 K for BF16 out, FP16/FP32 out on 128-row tiles beyond 2048/4096 K).
# GPU suite; decode, large and mid suites, both modes.
cd .device/s23
for f in h/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
timeout 200 ./h/mxgemm_gpu_tests > $OUT/gpu_tests_h.log 2>&1; echo "gpu suite h rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gpu_tests_h.log | head -12
grep "margin" $OUT/gpu_tests_h.log | grep -E "first 32" | awk '{print $3, $4, $9, $11}'
b() { timeout 100 ./h/mxgemm_bench "$@" > $OUT/$N.log 2>&1 || echo "$N rc=$?"; echo "$N $(grep -A1 'geometric mean' $OUT/$N.log | tail -1)"; }
N=decode_mx b --suite decode --iters 30
N=decode_wo b --mode weight-only --suite decode --iters 30
N=large_mx b --suite large --iters 20 --compare-kernel streaming
N=large_wo b --mode weight-only --suite large --iters 20 --compare-kernel streaming
N=mid_mx b --suite mid --iters 20 --compare-kernel streaming
N=mid_wo b --mode weight-only --suite mid --iters 20 --compare-kernel streaming
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
