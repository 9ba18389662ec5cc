#!/bin/bash
# Session 64, not yet run (for the next device): every suite that makes the README's columns, as
# session 63 ran them (bench/results/s61/call2.sh), on .device/s64/mxgemm_bench.xz: main bd5e775's
# kernels (built from 3ccdfe5 plus that change; to rebuild: `cmake --build build-dev -j2 --target
# mxgemm_bench`, `xz -T2 -c` into .device/s64/). Carry [".device/s64/mxgemm_bench.xz"].
D=.device/s64 BIN=${BIN:-mxgemm_bench} exec bash bench/results/s61/call2.sh
