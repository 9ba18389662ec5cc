// Scale layouts: shapes, byte offsets and conversion between the linear and the
// swizzled 128x4 layout. The offset functions are the single definition of the index
// math; CPU and CUDA code both call them.
#pragma once

#include <cstdint>

#include "mxgemm/types.hpp"

#if defined(__CUDACC__)
#define MXGEMM_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define MXGEMM_HOST_DEVICE inline
#endif

namespace mxgemm {

constexpr int kBlockSize = 32;          // elements sharing one E8M0 scale, along K
constexpr int kSwizzleRows = 128;       // rows of one swizzled tile
constexpr int kSwizzleCols = 4;         // scale columns of one swizzled tile
constexpr int kSwizzleTileBytes = 512;  // 128 x 4 bytes

MXGEMM_HOST_DEVICE constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}
MXGEMM_HOST_DEVICE constexpr std::int64_t round_up(std::int64_t a, std::int64_t b) {
  return ceil_div(a, b) * b;
}

// Number of scale columns of a K-wide operand: ceil(K / 32).
MXGEMM_HOST_DEVICE constexpr std::int64_t scale_cols(std::int64_t k) {
  return ceil_div(k, kBlockSize);
}

// Shape of the scale matrix of an R x K operand in the given layout.
struct ScaleShape {
  std::int64_t rows;
  std::int64_t cols;
};
constexpr ScaleShape scale_shape(std::int64_t rows, std::int64_t k, ScaleLayout layout) {
  return layout == ScaleLayout::Linear
             ? ScaleShape{rows, scale_cols(k)}
             : ScaleShape{round_up(rows, kSwizzleRows), round_up(scale_cols(k), kSwizzleCols)};
}

// Byte offset of scale (r, c) in the swizzled 128x4 layout of a matrix with `n_scale_cols`
// scale columns (ceil(K/32), unpadded). Tiles of 128 rows x 4 columns are contiguous
// 512-byte chunks, stored K-tile fastest; inside a tile, row r sits at
// (r % 32) * 16 + ((r % 128) / 32) * 4 and column c at c % 4.
MXGEMM_HOST_DEVICE constexpr std::int64_t swizzled_scale_offset(std::int64_t r, std::int64_t c,
                                                                 std::int64_t n_scale_cols) {
  const std::int64_t n_col_tiles = ceil_div(n_scale_cols, kSwizzleCols);
  return ((r / kSwizzleRows) * n_col_tiles + c / kSwizzleCols) * kSwizzleTileBytes +
         (r % 32) * 16 + ((r % kSwizzleRows) / 32) * 4 + (c % kSwizzleCols);
}

// Byte offset of scale (r, c) in a linear layout with the given row stride.
MXGEMM_HOST_DEVICE constexpr std::int64_t linear_scale_offset(std::int64_t r, std::int64_t c,
                                                              std::int64_t row_stride) {
  return r * row_stride + c;
}

// KOrder::Prepacked (types.hpp): the column (byte) of a prepacked row that holds element k,
// and the element that column p holds. Inside a block, element 16h + 8i + 2q + j sits at
// byte 8q + 4h + 2i + j.
MXGEMM_HOST_DEVICE constexpr std::int64_t prepacked_column(std::int64_t k) {
  const std::int64_t r = k % kBlockSize;
  return k - r + 8 * ((r >> 1) & 3) + 4 * (r >> 4) + 2 * ((r >> 3) & 1) + (r & 1);
}
MXGEMM_HOST_DEVICE constexpr std::int64_t prepacked_element(std::int64_t p) {
  const std::int64_t r = p % kBlockSize;
  return p - r + 16 * ((r >> 2) & 1) + 8 * ((r >> 1) & 1) + 2 * (r >> 3) + (r & 1);
}
static_assert(prepacked_column(prepacked_element(13)) == 13 && prepacked_element(prepacked_column(45)) == 45 &&
                  prepacked_column(2) == 8 && prepacked_column(16) == 4 && prepacked_column(8) == 2,
              "the two maps are inverses; element 2 is quad 1's first byte");

// Host-side conversion between layouts, for any row count and any K. `rows` and `k` are
// the operand's (data) shape. Padding bytes of a swizzled destination are set to
// `pad_value` (0 by default, i.e. the scale 2^-127); they never affect a product.
// Both views must be Host memory with dtype E8M0 and the shape the layout requires.
void scales_to_swizzled(ConstMatrixView linear, MatrixView swizzled, std::int64_t rows,
                        std::int64_t k, std::uint8_t pad_value = 0);
void scales_to_linear(ConstMatrixView swizzled, MatrixView linear, std::int64_t rows,
                      std::int64_t k);

}  // namespace mxgemm
