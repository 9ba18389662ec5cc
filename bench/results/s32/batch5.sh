#!/bin/bash
# Session 32 b5: a kernel's ncu duration against its CTAs' global-timer span, by launch shape
# (bench/spike/launch_shape.cu): does a 640-thread, 227 KB CTA cost ~4 us outside its span?
set -u
L=$OUT/logs; mkdir -p $L
./.device/s32/spike/launch_shape > $L/spans.log 2>&1
timeout 120 ncu --clock-control none --kernel-name stamp_kernel --metrics gpu__time_duration.sum ./.device/s32/spike/launch_shape > $L/ncu.log 2>&1
cd $OUT && tar czf logs.tgz logs
cat logs/spans.log
grep -E "gpu__time" logs/ncu.log | awk '{printf "%s ", $NF} NR%8==0 {print ""}'
rm -rf logs
