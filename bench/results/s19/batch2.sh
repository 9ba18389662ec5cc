#!/usr/bin/env bash
# Session 19 batch 2: the TMA ring with L2 cache policies, promotions and the 128B swizzle;
# ncu of cuBLASLt fp8's kernel at 1 x 8192 x 8192 (its SASS through the source page).
cd .device/s19
for f in spike/*.xz head/*.xz; do xz -d -k -f $f; chmod +x ${f%.xz}; done
S=./spike/ring_stream
{
for NK in "8192 8192 tma:256:64:8:1:128:4:64:0" "8192 28672 tma:256:64:8:1:128:4:64:0" "28672 8192 tma:256:64:8:1:112:1:64:0"; do
  set -- $NK
  for h in 0 1 2 3 4 0; do RING_HINT=$h RING_N=$1 RING_K=$2 $S $3 | tail -1; done
  for pr in 0 1 2; do RING_PROMO=$pr RING_N=$1 RING_K=$2 $S $3 | tail -1; done
  RING_HINT=1 RING_PROMO=0 RING_N=$1 RING_K=$2 $S $3 | tail -1
done
RING_N=8192 RING_K=8192 RING_SWZ=1 $S tma:64:128:16:1:128:1:128:0 tma:64:256:8:1:128:1:128:0 | tail -2
RING_N=8192 RING_K=8192 RING_SWZ=1 RING_HINT=1 $S tma:64:128:16:1:128:1:128:0 tma:64:256:8:1:128:1:128:0 | tail -2
RING_N=8192 RING_K=8192 $S tma:64:128:16:1:128:1:128:0 tma:64:128:24:1:128:1:128:0 | tail -2
} > $OUT/ring2.log 2>&1
cat $OUT/ring2.log
timeout 240 ncu --kernel-name regex:nvjet_sm90_qq --launch-count 1 --set full -f -o $OUT/cublas_fp8 ./head/mxgemm_bench --m 1 --n 8192 --k 8192 --iters 20 > $OUT/ncu_run.log 2>&1; echo "ncu rc=$?"
ncu -i $OUT/cublas_fp8.ncu-rep --page details > $OUT/cublas_details.txt 2>&1
ncu -i $OUT/cublas_fp8.ncu-rep --page source --print-source sass --csv > $OUT/cublas_sass.csv 2>&1
ncu -i $OUT/cublas_fp8.ncu-rep --page raw --csv > $OUT/cublas_raw.csv 2>&1
wc -l $OUT/cublas_*; grep -E "Duration|DRAM Throughput|Grid Size|Block Size|Cluster|Shared Memory Config|Registers|Dynamic Shared" $OUT/cublas_details.txt | head -20
(cd $OUT && tar czf ncu.tgz cublas_* ncu_run.log && rm -f cublas_fp8.ncu-rep)
