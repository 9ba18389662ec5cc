#!/bin/bash
# Session 63, call 5: call 3's sanitized GPU suite with ctest's environment as landed
# (UBSAN_OPTIONS=print_stacktrace=1 ASAN_OPTIONS=protect_shadow_gap=0, leak checking on, no
# suppressions; call 3's suppression file was dropped). Same binary. Carry [".device/s63"].
SUPP= LIMIT=${LIMIT:-200} exec bash bench/results/s63/call3.sh
