#!/usr/bin/env bash
# session 14 batch 7: the committed code (9e5aa3a, the "new" binary of batch 6): the suites,
# MXFP8 and weight-only (mid, large: --iters 20; decode: --iters 30).
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1; shift; timeout 280 ./new/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; grep -E "vs cuBLAS bf16 .*over|all checks" $OUT/$name.log | head -2; }
run mid_mx --suite mid --iters 20
run mid_wo --suite mid --mode weight-only --iters 20
run decode_mx --suite decode --iters 30
run decode_wo --suite decode --mode weight-only --iters 30
run large_mx --suite large --iters 20
run large_wo --suite large --mode weight-only --iters 20
