#!/bin/bash
# Session 60, call 3 (same H100): the large suite, both modes, on the hi build. Carry [".device/s60"].
xz -dc .device/s60/mxgemm_bench_hi.xz > /tmp/b && chmod +x /tmp/b && mkdir -p $OUT/l && for mode in weight-only mxfp8; do timeout 105 /tmp/b --suite large --iters 20 --mode $mode --csv $OUT/l/large_$mode.csv > $OUT/l/large_$mode.log 2>&1; echo "$mode rc=$?"; grep -A2 "geometric mean" $OUT/l/large_$mode.log | head -3; grep -E "all checks passed|FAIL" $OUT/l/large_$mode.log | tail -1; done
