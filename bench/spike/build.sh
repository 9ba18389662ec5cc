#!/usr/bin/env bash
# Build the Hopper spike micro-kernels (sm_90a). Output: build-spike/spike (+ ptxas log).
#   bash bench/spike/build.sh            # from the repository root
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/build-spike"
mkdir -p "$out"
python3 "$here/gen_wgmma_ops.py" > "$out/wgmma_ops.check.cuh"
cmp -s "$out/wgmma_ops.check.cuh" "$here/wgmma_ops.cuh" || {
  echo "wgmma_ops.cuh is stale: python3 bench/spike/gen_wgmma_ops.py > bench/spike/wgmma_ops.cuh" >&2; exit 1; }
nvcc -std=c++17 -O3 -lineinfo \
  -gencode=arch=compute_90a,code=sm_90a \
  -Xptxas -v -Xptxas --warn-on-spills \
  -o "$out/spike" "$here/spike.cu" 2> >(tee "$out/ptxas.log" >&2)
echo "built $out/spike"
