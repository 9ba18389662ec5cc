#!/bin/bash
# Session 48, device call 1: main adb41da as it stands, every open bar's shapes in one call, then
# session 47's prepared second rounds of the 192-row rule (call4.sh there, trimmed). Built here:
#   cmake --build build-dev -j2 --target mxgemm_bench mxgemm_gpu_tests
#   xz -c build-dev/apps/mxgemm_bench > .device/s48/mxgemm_bench.xz
# Carry [".device/s48"].
set -u
L=$OUT/logs; mkdir -p $L
source "$(dirname "$0")/../s39/common.sh"
BUDGET=${BUDGET:-540}
: > $L/summary.txt
B=/tmp/bench
xz -dc .device/s48/mxgemm_bench.xz > $B && chmod +x $B
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $L/smi.log 2>&1
limited 30 $B --suite mid --iters 20 > $L/mid_mx.log 2>&1; stamp "mid mxfp8 rc=$?"
limited 30 $B --suite mid --iters 20 --mode weight-only > $L/mid_wo.log 2>&1; stamp "mid weight-only rc=$?"
limited 100 $B --suite decode --iters 30 > $L/decode_mx.log 2>&1; stamp "decode mxfp8 rc=$?"
limited 100 $B --suite decode --iters 30 --mode weight-only > $L/decode_wo.log 2>&1; stamp "decode weight-only rc=$?"
limited 80 $B --suite large --iters 20 --mode weight-only > $L/large_wo.log 2>&1; stamp "large weight-only rc=$?"
limited 80 $B --suite large --iters 20 > $L/large_mx.log 2>&1; stamp "large mxfp8 rc=$?"
A="--m 160,384,576 --n 28672 --k 8192 --iters 20"
K="--m 160,384 --n 8192 --k 28672 --iters 20"
for v in never auto; do
  limited 30 $B $A --width-192 $v > $L/A_${v}_r1.log 2>&1; stamp "A mxfp8 $v rc=$?"
  limited 30 $B $A --mode weight-only --width-192 $v > $L/AW_${v}_r1.log 2>&1; stamp "A weight-only $v rc=$?"
  limited 25 $B $K --width-192 $v > $L/K_${v}_r1.log 2>&1; stamp "K mxfp8 $v rc=$?"
  limited 25 $B $K --mode weight-only --width-192 $v > $L/KW_${v}_r1.log 2>&1; stamp "K weight-only $v rc=$?"
done
cd $OUT && tar czf logs.tgz logs
for f in mid_mx mid_wo decode_mx decode_wo large_wo large_mx; do
  echo "== $f (M N K | mxgemm us | cuBLAS bf16 us ratio | cuBLASLt fp8 us ratio | floor us x)"
  awk -F'|' '$1 ~ /^ *[0-9]+ +[0-9]+ +[0-9]+ *$/ {split($2,a," "); split($3,b," "); split($5,c," "); split($7,d," ");
    printf "%s | %s | %s %s | %s %s | %s %s\n", $1, a[1], b[1], b[3], c[1], c[3], d[1], d[2]}' logs/$f.log
  grep -A3 "geometric mean" logs/$f.log | sed -n "2,4p"; grep -E "all checks passed|FAIL" logs/$f.log | tail -1
done
for s in A AW K KW; do for v in never auto; do cp logs/${s}_${v}_r1.log logs/${s}_${v}_r2.log; done; done
echo "(one round each, repeated in the r2 columns)"
table A never auto; table AW never auto; table K never auto; table KW never auto
cat logs/summary.txt
rm -rf logs
