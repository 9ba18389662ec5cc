#!/bin/bash
# Session 65, for the next device session (not run): where a large-M tile's time goes now, on
# main's kernels, as session 48's call 2 measured it before the TMA store (e3f1f70) and the
# store's buffers (bd5e775). Session 48 (H100): at weight-only 4096 x 8192^2 the epilogue (mainloop
# end to store end) was 24.0 us of a 693 us CTA span (3.5%), late stages 10.7%. If the epilogue
# is still ~2-3% at K = 8192 (more at K = 4096), the lead for issue #7 is an epilogue overlapped
# with the other math warpgroup's mainloop (each warpgroup storing its own 64-column box, its own
# barriers; the 256-row tile's ring of 4 stages of 64 K leaves up to 3 of slack); if it is under 1%,
# that lead is dead. Built here: `cmake -S . -B build-trace -DCMAKE_CUDA_ARCHITECTURES=90a
# -DMXGEMM_SM100=OFF -DMXGEMM_BUILD_TESTS=OFF -DMXGEMM_BUILD_SPIKES=OFF
# -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE`, `cmake --build build-trace -j2 --target mxgemm_bench`,
# `xz -T2 -c` into .device/s65/mxgemm_bench_trace.xz (main 228e742's kernels). Session 48's
# script with these builds and shapes (10 trace launches of 40 s at most, then two plain runs, cut by BUDGET).
# Carry [".device/s65/mxgemm_bench_trace.xz", ".device/s64/mxgemm_bench.xz"].
PLAIN_XZ=.device/s64/mxgemm_bench.xz TRACE_XZ=.device/s65/mxgemm_bench_trace.xz \
  SHAPES="2048 8192 8192;4096 8192 8192;8192 4096 4096;2048 28672 8192;2048 8192 28672" \
  BUDGET=${BUDGET:-420} exec bash bench/results/s48/call2.sh
