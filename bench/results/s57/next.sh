#!/bin/bash
# Prepared in session 57 for the next session with device time (not run yet). Binaries of main
# (device code unchanged since b018642): .device/s57/{mxgemm_gpu_tests,mxgemm_bench,
# mxgemm_bench_trace}.xz (the trace build: -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE); rebuild and
# repack them if the kernel's source has changed. Carry [".device/s57"].
# On an H200 (what issue #3 is measured on; sessions 56-57 mostly got H100s):
#  (N) ncu of MXFP8 128 x 8192^2: the math warps' stall samples, against the H100's (session 57:
#      34-35% waiting for data, DRAM-bound there); python3 bench/results/s57/stall_summary.py on
#      the export;
#  (R) the trace at 128 / 256 x 8192^2: the H200's cycles a stage (the H100's: 1290 / 1047);
#  (S) every suite for the README's H200 columns (session 49's).
# On an H100 only (T), the GPU suite again is all it would add: exit early instead.
set -u
L=$OUT/logs; mkdir -p $L
source bench/results/s39/common.sh
BUDGET=${BUDGET:-560}
: > $L/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
grep -q H200 $L/smi.log || { echo "not an H200: nothing run"; exit 0; }
for b in mxgemm_bench mxgemm_bench_trace; do xz -dc .device/s57/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
B=/tmp/mxgemm_bench
limited 40 ncu --clock-control none --kill yes --kernel-name regex:stream_gemm_sm90_kernel --launch-skip 5 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis \
  --import-source yes -f -o $OUT/ncu128 $B --m 128 --n 8192 --k 8192 --iters 20 --warmup-ms 0 > $L/ncu128.log 2>&1
stamp "ncu 128 rc=$?"
ncu --import $OUT/ncu128.ncu-rep --page details > $L/ncu128_details.txt 2>&1
ncu --import $OUT/ncu128.ncu-rep --page source --csv --print-source sass > $L/ncu128_sass.csv 2>&1
for m in 128 256; do
  MXGEMM_TRACE=1 limited 20 /tmp/mxgemm_bench_trace --m $m --n 8192 --k 8192 --iters 20 --warmup-ms 0 > $L/trace_$m.log 2>&1
  stamp "trace $m rc=$?"
  grep '^TRACE' $L/trace_$m.log | tail -20 > $L/t && mv $L/t $L/trace_$m.log
done
limited 30 $B --suite mid --iters 20 --csv $L/mid_mx.csv > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
limited 30 $B --suite mid --iters 20 --mode weight-only --csv $L/mid_wo.csv > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
limited 80 $B --suite large --iters 20 --mode weight-only --csv $L/large_wo.csv > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
limited 80 $B --suite large --iters 20 --csv $L/large_mx.csv > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --csv $L/decode_mx.csv > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --mode weight-only --csv $L/decode_wo.csv > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
python3 bench/results/s57/stall_summary.py $L/ncu128_sass.csv > $L/ncu128_sass_summary.txt 2>&1
xz -9 $L/ncu128_sass.csv
cd $OUT && tar czf logs.tgz logs
head -14 logs/ncu128_sass_summary.txt
for m in 128 256; do echo "== trace $m"; tail -1 logs/trace_$m.log | tr '|' '\n' | grep -E "first_stage|last_loop_end|MHz|cyc/stage|epi_ns" | tr '\n' '|'; echo; done
for f in mid_mx mid_wo large_wo large_mx decode_mx decode_wo; do
  [ -f logs/$f.log ] || continue
  echo "== $f"; grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
cat logs/summary.txt
rm -rf logs
