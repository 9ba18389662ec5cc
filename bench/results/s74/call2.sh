#!/bin/bash
# Session 74, call 2 (any H100 or H200; the GPU's name is in logs/smi.log). After call 1.
# Binaries (sm_90a), carry [".device/next"]: bench.xz and gpu_tests.xz from branch s74-work's top
# commit (the skinny kernel's stage for the natural values form, M-row boxes in both forms).
#  1. The whole GPU suite (a kernel change lands only after it).
#  2. The weight-only crossover that the natural form's stage may move: 1 / 4 / 8 BF16 rows on
#     3072 x 8192 and 4096 x 8192 (the library picks the streaming kernel's clusters above 2^24
#     elements, kSkinnyMaxWeightElemsWeightOnlyClusters), the skinny kernel in the comparison
#     column; natural and prepacked weights, two alternated rounds.
# BUDGET (default 440) caps the whole call.
set -u
source bench/results/s39/common.sh
call_start 440
unpack bench gpu_tests
limited 280 /tmp/gpu_tests > $L/full_suite.log 2>&1
stamp "full GPU suite rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $L/full_suite.log | tr '\n' ' ')"
cd $OUT
cross() {  # cross NAME ORDER
  limited 40 /tmp/bench --m 1,4,8 --n 3072,4096 --k 8192 --iters 30 --mode weight-only \
    --weight-order $2 --compare-kernel skinny --compare-weight-order $2 >> logs/cross_$1.log 2>&1
  stamp "cross $1 rc=$?"
}
cross natural_r1 natural
cross prepacked_r1 prepacked
cross prepacked_r2 prepacked
cross natural_r2 natural
tar czf logs.tgz logs
grep -E '^\[  FAILED' logs/full_suite.log | head -20
rows() { awk '$1 ~ /^[0-9]+$/ && NF > 20 {print $1, $2, $3, $5, $20, $NF}' "$1"; }
echo "== crossover: M N K | natural r1 auto us, skinny us | r2 | prepacked r1 auto, skinny | r2 (checks last)"
paste <(rows logs/cross_natural_r1.log | cut -d' ' -f1-5) <(rows logs/cross_natural_r2.log | cut -d' ' -f4,5) \
      <(rows logs/cross_prepacked_r1.log | cut -d' ' -f4,5) <(rows logs/cross_prepacked_r2.log | cut -d' ' -f4-)
cat logs/summary.txt
rm -rf logs/*.log
