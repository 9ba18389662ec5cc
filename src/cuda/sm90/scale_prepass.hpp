// Scales as the sm_90 kernels read them: swizzled 128x4 chunks (mainloop.cuh) at a 16-byte
// aligned address. Swizzled scales that are aligned are used in place; linear or unaligned
// ones are rewritten into the workspace by a short pre-pass (padding set to 127).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// The chunks as a TMA tensor map of 256-byte rows (two rows per chunk, box 2 x 256), so
// that they travel like the data tiles: chunk c is rows 2c and 2c + 1.
struct ChunkedScales {
  CUtensorMap map;
  int col_tiles;  // chunks per 128-row tile: ceil(ceil(K/32) / 4)
  const std::uint8_t* data;  // the chunks themselves (chunk c at 512 c)
};

// Workspace bytes scale_chunks needs for `op` (0 when its scales are used in place), a
// multiple of 1024.
std::size_t scale_chunks_workspace(const ConstMxOperand& op);

// op's scales in the swizzled layout at a 16-byte aligned address: in place, or rewritten
// into `workspace` (scale_chunks_workspace(op) bytes) on `stream`.
const std::uint8_t* swizzled_scales(const ConstMxOperand& op, void* workspace, cudaStream_t stream);

// op's scales as chunks: in place, or rewritten into `workspace` on `stream`.
ChunkedScales scale_chunks(const ConstMxOperand& op, void* workspace, cudaStream_t stream);

}  // namespace mxgemm::sm90
