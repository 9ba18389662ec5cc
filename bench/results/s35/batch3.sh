#!/bin/bash
# Session 35 b3: n1 = c0 + the split tiles summed in the streaming kernel (cooperative launch,
# no reduction kernel) + weight-only 9..16 rows on the skinny kernel up to 2^23 weight elements.
# GPU suite and sanitizers on n1; whether the reduction kernel still runs (ncu); then c0 / n1
# alternated, two rounds: the split-reduction shapes (8 and 16 MB weights, 16..64 rows) and a
# regression set of shapes that do not split (224 MB decode, 8192^2, mid and large M).
set -u
L=$OUT/logs; mkdir -p $L
for v in c0 n1; do xz -dc .device/s35/$v/mxgemm_bench.xz > /tmp/bench_$v && chmod +x /tmp/bench_$v; done
xz -dc .device/s35/n1/mxgemm_gpu_tests.xz > /tmp/gpu_tests && chmod +x /tmp/gpu_tests
T0=$(date +%s)
timeout 220 /tmp/gpu_tests > $L/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
timeout 120 compute-sanitizer --tool memcheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.SplitTiles*' > $L/memcheck.log 2>&1; echo "memcheck rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
timeout 120 compute-sanitizer --tool racecheck /tmp/gpu_tests --gtest_filter='GpuStreamGemm.SplitTilesSumDeterministically' > $L/racecheck.log 2>&1; echo "racecheck rc=$? $(( $(date +%s) - T0 )) s" >> $L/marks.log
for v in c0 n1; do
  timeout 60 ncu -k regex:"stream_reduce|stream_gemm" --launch-count 4 --metrics gpu__time_duration.sum /tmp/bench_$v --m 64 --n 1024 --k 8192 --iters 20 --warmup-ms 0 --warmup 1 > $L/ncu_$v.log 2>&1
done
A="--m 16,32,64 --n 1024,4096 --k 4096,8192 --iters 30"
B="--mode weight-only --m 9,16,32,64 --n 1024,4096 --k 4096,8192 --iters 30"
R1="--m 16,32,64 --n 28672 --k 8192 --iters 30"
R2="--mode weight-only --m 1,16,32,64 --n 28672 --k 8192 --iters 30"
R3="--m 1,16,32 --n 8192 --k 8192 --iters 30"
R4="--m 128,256 --n 8192 --k 8192 --iters 20"
R5="--mode weight-only --m 4096 --n 8192 --k 8192 --iters 20"
for round in 1 2; do for v in c0 n1; do for t in A B R1 R2 R3 R4 R5; do
  timeout 100 /tmp/bench_$v ${!t} > $L/${t}_${v}_r$round.log 2>&1
done; done; done
echo "bench done $(( $(date +%s) - T0 )) s" >> $L/marks.log
cd $OUT && tar czf logs.tgz logs
cat logs/marks.log
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" logs/gpu_tests.log | tail -5
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" logs/memcheck.log logs/racecheck.log
for v in c0 n1; do echo "ncu $v: $(grep -cE 'stream_reduce_sm90_kernel' logs/ncu_$v.log) reduction-kernel lines, $(grep -cE 'stream_gemm_sm90_kernel' logs/ncu_$v.log) streaming-kernel lines"; done
echo "M N K | c0 r1, n1 r1, c0 r2, n1 r2 us | cuBLAS bf16, cuBLASLt fp8 us (c0 r1) | n1 check"
for t in A B R1 R2 R3 R4 R5; do
  paste <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n1_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_c0_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $5}' logs/${t}_n1_r2.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $8, $16}' logs/${t}_c0_r1.log) \
        <(awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $NF}' logs/${t}_n1_r1.log) | sed "s/^/$t /"
done
grep -L "all checks passed" logs/*_n1_*.log
rm -rf logs
