#!/usr/bin/env bash
# session 16 batch 1: timeline of the skinny kernel (new: src/cuda/sm90/skinny_trace.cuh) and of
# the streaming kernel at small M on the 224 MB layers, at a7ff1c4 + the skinny trace; the
# read-floor probe (bench/spike/read_floor.cu) for reference.
cd .device
for f in trace/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
./trace/read_floor 64 224 > $OUT/read_floor.log 2>&1; echo "read_floor rc=$?"
export MXGEMM_TRACE=1
run() { local name=$1; shift; timeout 150 ./trace/mxgemm_bench "$@" > $OUT/$name.log 2>&1; echo "$name rc=$?"; }
run sk_mx --m 1,8 --n 8192,28672 --k 8192 --iters 20
run sk_mx_k28 --m 1,8 --n 8192 --k 28672 --iters 20
run sk_mx_small --m 1 --n 1024,4096 --k 4096,8192 --iters 20
run sk_wo --mode weight-only --m 1,8 --n 8192 --k 8192 --iters 20
run st_mx --m 16,32,64 --n 28672 --k 8192 --iters 20
run st_wo --mode weight-only --m 1,8,16,32,64 --n 28672 --k 8192 --iters 20
cat $OUT/read_floor.log
for f in sk_mx sk_mx_k28 sk_mx_small sk_wo st_mx st_wo; do
  echo "== $f"; awk '$4=="|"{print $1,$2,$3,$5,$10,$25}' $OUT/$f.log
  grep "^TRACE" $OUT/$f.log | awk '{key=$1" "$2" "$3" "$4" "$5" "$6; last[key]=$0; if(!(key in seen)){seen[key]=1; order[++n]=key}} END{for(i=1;i<=n;i++) print last[order[i]]}'
done
