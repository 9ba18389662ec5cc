#!/usr/bin/env bash
# session 12 batch 2: ncu of the pipeline-only ablation (bench4) at 256 and 128 x 28672 x 8192,
# and the durations of every kernel one mxgemm call launches (bench0 = main).
cd .device/abl
for v in 0 4; do xz -d -c bench$v.xz > bench$v; chmod +x bench$v; done
for m in 256 128; do
  timeout 200 ncu --kill yes -k regex:stream_gemm --launch-skip 1 -c 1 --set full --import-source no -o $OUT/abl4_m$m ./bench4 --m $m --n 28672 --k 8192 --iters 20 > $OUT/ncu_m$m.log 2>&1
  echo "ncu m$m rc=$?"
  ncu --import $OUT/abl4_m$m.ncu-rep --page details > $OUT/abl4_m${m}_details.txt 2>&1
  rm -f $OUT/abl4_m$m.ncu-rep
done
timeout 200 ncu --kill yes -k regex:"stream|prepass|reduce|scale" -c 12 --metrics gpu__time_duration.sum ./bench0 --m 256 --n 28672 --k 8192 --iters 20 > $OUT/durations.log 2>&1
echo "durations rc=$?"
grep -E "stream_|prepass|reduce|scale|gpu__time" $OUT/durations.log | head -40
for m in 256 128; do echo "== m$m"; grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache|L2 Hit|Memory Throughput|Issue Slots Busy|No Eligible|Active Warps" $OUT/abl4_m${m}_details.txt | head -20; done
