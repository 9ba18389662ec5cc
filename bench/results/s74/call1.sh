#!/bin/bash
# Session 74, call 1 (any H100 or H200; the GPU's name is in logs/smi.log).
# Binaries (sm_90a), carry [".device/next"]: bench.xz and gpu_tests.xz built from branch s74-work's top
# commit (5d5f569 cherry-picked onto main: the skinny kernel: M-row activation boxes, rows past M zeroed once, in both forms; the
# natural values form's activation from the stage), bench_prev.xz from main (session 73's M-row
# box, prepacked only; the natural values form from registers, the codes form's 16-row box).
#  1. The whole GPU suite (about 190 s on the H100 in session 73); memcheck on the skinny and
#     prepacked tests.
#  2. 1..8 weight-only rows on three small weights: natural, previous and new; prepacked, new
#     (session 73's call 2 timed the previous build's prepacked form);
#     MXFP8 9..16 rows on two (the codes form's M-row box). Comparison column: streaming.
#  3. The decode weight-only suite: main's build natural and prepacked (is prepacked ahead on
#     this GPU too?), the new build natural.
# BUDGET (default 470) caps the whole call (the last decode run may not fit).
set -u
source bench/results/s39/common.sh
call_start 470
unpack bench bench_prev gpu_tests
limited 240 /tmp/gpu_tests > $L/tests.log 2>&1
stamp "full GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/tests.log | tr '\n' ' ')"
limited 60 compute-sanitizer --tool memcheck /tmp/gpu_tests \
  --gtest_filter='GpuWeightOnly.PrepackedWeight*:GpuSkinnyGemm.ElementTypes*:GpuSkinnyGemm.NanScales*' > $L/memcheck.log 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.log)"
cd $OUT
wo() {  # wo NAME BENCH ORDER: 1..8 weight-only rows on 4096^2, 1024 x 8192, 2048 x 4096
  local nk
  for nk in "4096 4096" "1024 8192" "2048 4096"; do
    limited 30 /tmp/$2 --m 1,2,4,8 --n ${nk% *} --k ${nk#* } --iters 30 --mode weight-only \
      --weight-order $3 --compare-kernel streaming --compare-weight-order $3 >> logs/$1.log 2>&1
  done
  stamp "$1 rc=$?"
}
mx() {  # mx NAME BENCH: MXFP8 9..16 rows on 4096^2 and 1024 x 8192
  local nk
  for nk in "4096 4096" "1024 8192"; do
    limited 30 /tmp/$2 --m 9,12,15,16 --n ${nk% *} --k ${nk#* } --iters 30 --compare-kernel streaming >> logs/$1.log 2>&1
  done
  stamp "$1 rc=$?"
}
wo natural_prev bench_prev natural
wo natural_new bench natural
wo prepacked_new bench prepacked
mx mx_prev bench_prev
mx mx_new bench
for d in "prev natural" "new natural" "prev prepacked"; do
  set -- $d; b=bench_$1; [ $1 = new ] && b=bench
  limited 80 /tmp/$b --suite decode --iters 20 --mode weight-only --weight-order $2 > logs/decode_$1_$2.log 2>&1
  stamp "decode $1 $2 rc=$? $(grep -A1 'geometric mean' logs/decode_$1_$2.log | tail -1)"
done
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/tests.log | head -20
rows() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $NF}' "$1"; }
echo "== weight-only: M N K | natural prev us, streaming | natural new | prepacked new (checks last)"
paste <(rows logs/natural_prev.log | cut -d' ' -f1-5) <(rows logs/natural_new.log | cut -d' ' -f4,5) \
      <(rows logs/prepacked_new.log | cut -d' ' -f4-)
echo "== MXFP8: M N K | prev us, streaming | new us, streaming, check"
paste <(rows logs/mx_prev.log | cut -d' ' -f1-5) <(rows logs/mx_new.log | cut -d' ' -f4-)
echo "== decode: M N K | prev natural us | prev prepacked us | new natural us | cuBLAS bf16 us (prev natural) | check"
dec() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $8, $NF}' "$1"; }
paste <(dec logs/decode_prev_natural.log | cut -d' ' -f1-4) <(dec logs/decode_prev_prepacked.log | cut -d' ' -f4) \
      <(dec logs/decode_new_natural.log | cut -d' ' -f4) <(dec logs/decode_prev_natural.log | cut -d' ' -f5,6)
cat logs/summary.txt
rm -rf logs/*.log
