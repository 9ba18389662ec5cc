#!/usr/bin/env bash
# On the CPU machine, from the repository root: builds the session's variants into
# .device/s17v/<variant>/ (xz-compressed) for the batch scripts here (carry [".device"]).
#   base   main as it is (HEAD, work-tree changes stashed)
#   early  HEAD + early_fixup.patch (the stream-K fixups' early counter check and L2 prefetch;
#          batches 1 and 2 ran earlier forms of it, see README.md)
# With TRACE=1 each also as a timeline build (-DMXGEMM_STREAM_TRACE, build-trace/): <variant>_trace.
set -euo pipefail
here=bench/results/s17
out=.device/s17v
rm -rf "$out" && mkdir -p "$out"
[ -d build-trace ] || cmake -S . -B build-trace -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DMXGEMM_SM100=OFF -DCMAKE_CUDA_FLAGS=-DMXGEMM_STREAM_TRACE > /dev/null
build() {
  cmake --build build -j2 --target mxgemm_bench mxgemm_gpu_tests > /dev/null
  mkdir -p "$out/$1"
  cp build/apps/mxgemm_bench build/tests/mxgemm_gpu_tests "$out/$1/"
  xz -T2 "$out/$1"/*
  if [ "${TRACE:-0}" = 1 ]; then
    cmake --build build-trace -j2 --target mxgemm_bench > /dev/null
    mkdir -p "$out/$1_trace" && cp build-trace/apps/mxgemm_bench "$out/$1_trace/" && xz -T2 "$out/$1_trace"/*
  fi
}
stashed=0
if ! git diff --quiet -- src tests; then git stash push -q -- src tests; stashed=1; fi
build base
git apply "$here/early_fixup.patch"
build early || { git checkout -- src tests; exit 1; }
git checkout -- src tests
[ $stashed = 1 ] && git stash pop -q
ls -la "$out"/*
