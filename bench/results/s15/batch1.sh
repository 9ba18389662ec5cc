#!/usr/bin/env bash
# session 15 batch 1: timeline of the streaming kernel at main (08b4da0) + the trace patch
# (build with -DMXGEMM_STREAM_TRACE; bench/results/s15/stream_trace.patch): per-CTA stamps,
# min/median/max over CTAs, us from the first pre-pass (or kernel) start.
cd .device
for f in trace/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
export MXGEMM_TRACE=1
run() { local name=$1; shift; timeout 120 ./trace/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; }
run mx_mid --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
run wo_mid --mode weight-only --m 64,128,256,512,1024 --n 8192 --k 8192 --iters 20
run mx_large --m 4096,8192 --n 8192 --k 8192 --iters 20
run wo_large --mode weight-only --m 4096,8192 --n 8192 --k 8192 --iters 20
run mx_n28k --m 64,256,2048 --n 28672 --k 8192 --iters 20
for f in mx_mid wo_mid mx_large wo_large mx_n28k; do echo "== $f"; grep TRACE $OUT/$f.log | awk '{key=$2" "$3" "$4; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}'; done
