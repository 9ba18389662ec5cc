#!/usr/bin/env bash
# session 11 batch 4: ncu source profiles (per-SASS stall samples) of the streaming kernel in its
# steady state, at the session's starting commit: M = 32 (MXFP8, values form) and M = 128
# (weight-only) on the 28672 x 8192 layer.
cd .device
xz -d -c head/mxgemm_bench.xz > head/mxgemm_bench; chmod +x head/mxgemm_bench
P() { # name args...
  local name=$1; shift
  timeout 200 ncu --kill yes -k regex:stream_gemm --launch-skip 1 -c 1 --set full --import-source no -o $OUT/$name ./head/mxgemm_bench "$@" --iters 20 > $OUT/${name}_run.log 2>&1; echo "ncu $name rc=$?"
  ncu -i $OUT/$name.ncu-rep > $OUT/${name}_details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $OUT/${name}_source.csv.gz
  rm -f $OUT/$name.ncu-rep
  grep -E "stream_gemm|Duration|DRAM Throughput|Issue Slots|No Eligible|L2 Hit|SM Active|Elapsed Cycles|Eligible Warps" $OUT/${name}_details.txt | head -12
}
P p32 --m 32 --n 28672 --k 8192
P p128 --m 128 --n 28672 --k 8192 --mode weight-only
tail -3 $OUT/p32_run.log
