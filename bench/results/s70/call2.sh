#!/bin/bash
# Session 70, call 2 (any GPU): the spike's register-A inner loop (B0: two math warpgroups, CTA
# 128 x 256) against B5 (the same loop with WG1 idle: one warpgroup alone feeds the tensor
# cores) and V0 (bf16 SS), to see whether one warpgroup can keep the tensor cores busy while the
# other stores its tile (the per-warpgroup epilogue, session 65's lead for #7's K = 4096 shapes).
# On an H200, call1.sh (issue #7 / #3 rounds and traces) runs first and the spike once after it;
# on an H100, the spike twice.
# Binaries: `bash bench/spike/build.sh` (build-spike/), next.sh's two (.device/next).
# Carry ["build-spike", ".device/next"].
set -u
mkdir -p $OUT/spike
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
rounds="1 2"
if nvidia-smi -L | grep -q H200; then BUDGET_ALL=420 bash bench/results/s70/call1.sh; rounds=1; fi
for r in $rounds; do
  OUT=$OUT/spike/r$r VARIANTS="V0 B0 B5" bash bench/spike/run.sh > $OUT/spike/r$r.txt 2>&1
  echo "spike r$r rc=$?"; grep -E "^\| [VB][0-9] " $OUT/spike/r$r.txt
done
rm -f $OUT/spike/r*/spike.sass
