#!/usr/bin/env bash
# session 15 batch 7: the suites at the session's last kernel code ("new" = batch 6's binary):
# mid, large, decode, MXFP8 and weight-only (median of --iters 20, 30 for decode).
cd .device
for f in new/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1; shift; timeout 200 ./new/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; grep -E "vs cuBLAS bf16 .*over|geomean|all checks" $OUT/$name.log | head -3; }
run mid_mx --suite mid --iters 20
run mid_wo --suite mid --mode weight-only --iters 20
run decode_mx --suite decode --iters 30
run decode_wo --suite decode --mode weight-only --iters 30
run large_mx --suite large --iters 20
run large_wo --suite large --mode weight-only --iters 20
for f in mid_mx mid_wo large_mx large_wo; do echo "-- $f"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log; echo; done
