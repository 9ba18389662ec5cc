#!/usr/bin/env bash
# session 14 batch 13: the committed code (e95ce14, the "pair" binary of batch 12): the mid
# suites (MXFP8, weight-only) and the decode suite (MXFP8).
cd .device
for f in pair/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
run() { local name=$1; shift; timeout 150 ./pair/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; grep -E "vs cuBLAS bf16 .*over|all checks" $OUT/$name.log | head -2; }
run mid_mx --suite mid --iters 20
run mid_wo --suite mid --mode weight-only --iters 20
run decode_mx --suite decode --iters 30
for f in mid_mx mid_wo; do echo "-- $f"; awk '$4=="|" && $1+0>0 {printf "%s %s(%s) ", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log; echo; done
