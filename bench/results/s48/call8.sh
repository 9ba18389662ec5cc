#!/bin/bash
# Session 48, device call 8 (on the machine call7 left warm; 194 s of device time left): the
# full GPU suite of branch s48-tma-store (call7's build), as issued:
xz -dc .device/s48c6/mxgemm_gpu_tests_tma.xz > /tmp/t && chmod +x /tmp/t && timeout 175 /tmp/t > $OUT/suite.log 2>&1; echo rc=$?   # (kept here as call8/suite.log.gz)
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $OUT/suite.log | tail -6; grep -c "^\[       OK" $OUT/suite.log
