#!/usr/bin/env bash
# session 11 batch 2: up to 12 pipeline stages in 220 KB for M <= 32 (exp2) against 8 in 200 KB
# (base), alternating, two rounds; ncu source profiles of the steady state at M = 32 (MXFP8)
# and M = 128 (weight-only) on the 28672 x 8192 layer.
cd .device
for v in base exp2; do xz -d -c $v/mxgemm_bench.xz > $v/mxgemm_bench; chmod +x $v/mxgemm_bench; done
run() { local name=$1 bin=$2; shift 2; timeout 90 ./$bin/mxgemm_bench "$@" >> $OUT/$name.log 2>&1 || echo "$name rc=$?"; }
S1="--m 16,24,32 --n 8192,28672 --k 8192 --iters 30"
S2="--m 16,32 --n 8192 --k 28672 --iters 30"
S3="--m 32 --n 4096 --k 4096 --iters 30"
for r in 1 2; do for S in "$S1" "$S2" "$S3"; do
  run st_base base $S; run st_exp2 exp2 $S
done; done
for S in "--m 12,16,32 --n 28672 --k 8192 --iters 30"; do
  run st_base_wo base $S --mode weight-only; run st_exp2_wo exp2 $S --mode weight-only
done
echo "== per shape: mxgemm us (ratio vs cuBLAS bf16), each run"
for f in st_base st_exp2 st_base_wo st_exp2_wo; do
  echo "-- $f"; awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +\|/{printf "%s %s %s\n", $1"x"$2"x"$3, $5, $10}' $OUT/$f.log | awk '{a[$1]=a[$1]" "$2"("$3")"} END{for(k in a) print k, a[k]}' | sort -t x -k1,1n -k2,2n
done
P() { # name args...
  local name=$1; shift
  timeout 150 ncu --kill yes -k regex:stream_gemm --launch-skip 1 -c 1 --set full --import-source no -o $OUT/$name ./base/mxgemm_bench "$@" --iters 2 > /dev/null 2>&1; echo "ncu $name rc=$?"
  ncu -i $OUT/$name.ncu-rep > $OUT/${name}_details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $OUT/${name}_source.csv.gz
  rm -f $OUT/$name.ncu-rep
  grep -E "stream_gemm|Duration|DRAM Throughput|Issue Slots|No Eligible|L2 Hit|SM Active|Elapsed Cycles|Eligible Warps" $OUT/${name}_details.txt | head -12
}
P p32 --m 32 --n 28672 --k 8192
P p128 --m 128 --n 28672 --k 8192 --mode weight-only
ls $OUT
