#!/usr/bin/env bash
# Session 19 batch 3: which of box width, swizzle and evict_first makes the TMA ring faster;
# ncu of cuBLASLt fp8's 1 x 8192 x 8192 kernel.
cd .device/s19
for f in spike/*.xz head/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
r() { RING_N=$1 RING_K=$2 RING_SWZ=$3 RING_HINT=$4 $S $5 | tail -1 | sed "s/^/$1x$2 /"; }
{
for NK in "8192 8192" "8192 28672"; do
  set -- $NK
  for h in 0 1; do
    r $1 $2 0 $h tma:64:256:8:1:128:1:64:0
    r $1 $2 2 $h tma:64:256:8:1:128:1:64:0
    r $1 $2 0 $h tma:64:256:8:1:128:1:128:0
    r $1 $2 1 $h tma:64:256:8:1:128:1:128:0
    r $1 $2 1 $h tma:64:256:8:1:128:1:128:16
    r $1 $2 2 $h tma:256:64:8:1:128:4:64:0
    r $1 $2 1 $h tma:256:128:4:1:128:4:128:0
    r $1 $2 1 $h tma:128:128:8:1:128:2:128:0
    r $1 $2 1 $h tma:64:128:16:1:128:1:128:0
  done
done
for h in 0 1; do
  r 28672 8192 2 $h tma:256:64:8:1:112:1:64:0
  r 28672 8192 1 $h tma:256:128:4:1:112:1:128:0
  r 28672 8192 1 $h tma:128:128:8:1:112:1:128:0
  r 28672 8192 1 $h tma:64:256:8:1:112:1:128:0
  r 28672 8192 1 $h tma:64:256:8:1:132:1:128:0
  r 28672 8192 1 $h tma:128:128:8:1:132:1:128:0
done
} > $OUT/ring3.log 2>&1
cat $OUT/ring3.log
timeout 200 ncu --kernel-name regex:qqtst_64x8 --launch-skip 2 --launch-count 1 --set full -f -o $OUT/cublas_fp8 ./head/mxgemm_bench --m 1 --n 8192 --k 8192 --iters 20 > $OUT/ncu_run.log 2>&1; echo "ncu rc=$?"
ncu -i $OUT/cublas_fp8.ncu-rep --page details > $OUT/cublas_details.txt 2>&1
ncu -i $OUT/cublas_fp8.ncu-rep --page source --print-source sass --csv > $OUT/cublas_sass.csv 2>&1
grep -E "Duration|DRAM Throughput|Grid Size|Block Size|Cluster Size|Registers Per|Dynamic Shared" $OUT/cublas_details.txt | head -12
grep -o '"[^"]*UTMA[^"]*"' $OUT/cublas_sass.csv | sort | uniq -c
(cd $OUT && tar czf ncu.tgz cublas_* ncu_run.log && rm -f cublas_fp8.ncu-rep)
