#!/bin/bash
# Session 33 b3: launch_shape with parameter blocks of 16 / 1152 / 4096 bytes (640 threads, 227
# KB, PDL, 128 CTAs): CTA span, back-to-back time a launch, and ncu duration.
set -u
L=$OUT/logs; mkdir -p $L
./.device/s33/spike/launch_shape > $L/spans.log 2>&1
LAUNCH_NO_LOOP=1 timeout 200 ncu --clock-control none --kernel-name regex:stamp_kernel_params --metrics gpu__time_duration.sum ./.device/s33/spike/launch_shape > $L/ncu_spans.log 2>&1
cd $OUT && tar czf logs.tgz logs
grep params logs/spans.log
grep -E "stamp_kernel_params|gpu__time" logs/ncu_spans.log | awk '/stamp_kernel_params/{match($0,/Blob<\(int\)[0-9]+>|Blob<[0-9]+>/); k=substr($0,RSTART,RLENGTH)} /gpu__time/{v[k]=v[k]" "$NF} END{for (k in v) print k, v[k]}' | cut -c1-400
rm -rf logs
