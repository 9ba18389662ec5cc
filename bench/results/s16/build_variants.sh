#!/usr/bin/env bash
# On the CPU machine, from the repository root: builds main and each prepared experiment of
# session 16 (main + one patch each) into .device/s16v/<variant>/ (xz-compressed), for
# batch5.sh on the device: carry [".device"].
#   base      main as it is
#   fixup     fixup_release.patch     (streaming kernel: one release by math thread 0 in the fixup)
#   fp32      staged_store_fp32.patch (streaming kernel: FP32 outputs through the staged store)
#   skinny16  skinny_16_warps.patch   (skinny kernel: one CTA of 16 warps per SM, not two of 8)
#   aligned   skinny_tile_aligned.patch (skinny kernel: tile-aligned ranges where they fill 95%)
set -euo pipefail
here=bench/results/s16
out=.device/s16v
rm -rf "$out" && mkdir -p "$out"
git diff --quiet || { echo "build_variants.sh: the work tree has changes; commit or stash them first" >&2; exit 1; }
build() {
  cmake --build build -j2 --target mxgemm_bench mxgemm_gpu_tests mxgemm_cli > /dev/null
  mkdir -p "$out/$1"
  cp build/apps/mxgemm_bench build/tests/mxgemm_gpu_tests build/apps/mxgemm_cli "$out/$1/"
  xz -T2 "$out/$1"/*
}
build base
for v in fixup:fixup_release fp32:staged_store_fp32 skinny16:skinny_16_warps aligned:skinny_tile_aligned; do
  git apply "$here/${v#*:}.patch"
  build "${v%%:*}" || { git checkout -- src tests; exit 1; }
  git checkout -- src tests
done
ls -la "$out"/*
