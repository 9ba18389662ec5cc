#!/bin/bash
# Session 32 b7: launch_shape (fixed: b6's run stopped at its first shape without shared
# memory, which it touched): ncu duration against the CTAs' span, by launch shape.
set -u
L=$OUT/logs; mkdir -p $L
./.device/s32/spike/launch_shape > $L/spans.log 2>&1
timeout 100 ncu --clock-control none --kernel-name stamp_kernel --metrics gpu__time_duration.sum ./.device/s32/spike/launch_shape > $L/ncu_spans.log 2>&1
cd $OUT && tar czf logs.tgz logs
cat logs/spans.log
grep -E "gpu__time" logs/ncu_spans.log | awk '{printf "%s ", $NF} NR%8==0 {print ""}'
rm -rf logs
