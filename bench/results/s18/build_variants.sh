#!/usr/bin/env bash
# On the CPU machine, from the repository root: builds the session's variants into
# .device/s18v/<variant>/ (xz-compressed) for the batch scripts here (carry [".device"]).
#   base     main as it is (HEAD, work-tree changes to src/tests stashed)
#   wtiles   HEAD + skinny_whole_tiles.patch (batch 1; one whole tile a skinny CTA where the
#            tiles fill 80% of the CTA slots)
#   wocodes  the work tree: weight-only up to 16 rows in the codes form (bf16 codes pre-pass)
#   wowatch  the work tree of batch 2 + codes_weight_watch.patch (every codes form watches the
#            weight scales); the patch applies to 98e63e5's kernel files only
#   final    the work tree (batch 3 on)
# VARIANTS="base final" picks some (default: base final).
set -euo pipefail
here=bench/results/s18
out=.device/s18v
variants=${VARIANTS:-base final}
mkdir -p "$out"
build() {
  cmake --build build -j2 --target mxgemm_bench mxgemm_gpu_tests > /dev/null
  rm -rf "$out/$1" && mkdir -p "$out/$1"
  cp build/apps/mxgemm_bench build/tests/mxgemm_gpu_tests "$out/$1/"
  xz -T2 "$out/$1"/*
}
has() { [[ " $variants " == *" $1 "* ]]; }
if has wocodes; then build wocodes; fi
if has final; then build final; fi
if has wowatch; then
  git apply "$here/codes_weight_watch.patch"
  build wowatch || { git apply -R "$here/codes_weight_watch.patch"; exit 1; }
  git apply -R "$here/codes_weight_watch.patch"
fi
if has base || has wtiles; then
  stashed=0
  if ! git diff --quiet -- src tests; then git stash push -q -- src tests; stashed=1; fi
  if has base; then build base; fi
  if has wtiles; then
    git apply "$here/skinny_whole_tiles.patch"
    build wtiles || { git checkout -- src tests; exit 1; }
    git checkout -- src tests
  fi
  [ $stashed = 1 ] && git stash pop -q
fi
ls -la "$out"/*
