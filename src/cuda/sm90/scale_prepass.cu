// One thread per byte of the padded swizzled scale matrix: the inverse of the chunk layout
// gives the (row, block) it holds, read from the source in its own layout.
#include "cuda/sm90/scale_prepass.hpp"

#include "core/check.hpp"
#include "cuda/common/tensor_map.hpp"
#include "cuda/sm90/mainloop.cuh"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) scale_chunks_kernel(const ScaleSource src, int rows,
                                                                int blocks, int col_tiles,
                                                                std::uint8_t* out, std::int64_t total) {
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= total) return;
  const std::int64_t chunk = idx / kScaleChunkBytes;
  const int o = static_cast<int>(idx % kScaleChunkBytes);
  // Inverse of swizzled_scale_offset inside one chunk: o = (r % 32) * 16 + (r / 32) * 4 + c % 4.
  const int r = static_cast<int>(chunk / col_tiles) * kSwizzleRows + o / 16 + 32 * ((o % 16) / 4);
  const int c = static_cast<int>(chunk % col_tiles) * kSwizzleCols + o % 4;
  out[idx] = static_cast<std::uint8_t>(ScaleRow(src, r, rows, blocks).load(c));
}

bool usable_in_place(const ConstMxOperand& op) {
  return op.layout == ScaleLayout::Swizzled128x4 &&
         reinterpret_cast<std::uintptr_t>(op.scales.data) % 16 == 0;
}

std::int64_t chunk_bytes(const ConstMxOperand& op) {
  const ScaleShape s = scale_shape(op.data.rows, op.data.cols, ScaleLayout::Swizzled128x4);
  return s.rows * s.cols;
}

}  // namespace

std::size_t scale_chunks_workspace(const ConstMxOperand& op) {
  return usable_in_place(op) ? 0 : static_cast<std::size_t>(ceil_div(chunk_bytes(op), 1024) * 1024);
}

const std::uint8_t* swizzled_scales(const ConstMxOperand& op, void* workspace, cudaStream_t stream) {
  if (usable_in_place(op)) return static_cast<const std::uint8_t*>(op.scales.data);
  const int blocks = static_cast<int>(scale_cols(op.data.cols));
  const int col_tiles = static_cast<int>(ceil_div(blocks, kSwizzleCols));
  const std::int64_t total = chunk_bytes(op);
  const ScaleSource src{static_cast<const std::uint8_t*>(op.scales.data), op.scales.row_stride,
                        op.layout == ScaleLayout::Swizzled128x4};
  auto* out = static_cast<std::uint8_t*>(workspace);
  scale_chunks_kernel<<<static_cast<unsigned>(ceil_div(total, kThreads)), kThreads, 0, stream>>>(
      src, static_cast<int>(op.data.rows), blocks, col_tiles, out, total);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
  return out;
}

ChunkedScales scale_chunks(const ConstMxOperand& op, void* workspace, cudaStream_t stream) {
  const int col_tiles = static_cast<int>(ceil_div(scale_cols(op.data.cols), kSwizzleCols));
  // The chunks as 256-byte rows, two per chunk.
  const std::uint8_t* chunks = swizzled_scales(op, workspace, stream);
  return ChunkedScales{cuda::make_tensor_map_2d_u8(chunks, chunk_bytes(op) / 256, 256, 256, 2, 256,
                                                   CU_TENSOR_MAP_SWIZZLE_NONE),
                       col_tiles, chunks};
}

}  // namespace mxgemm::sm90
