// Work distribution shared by the memory-bound kernels: a grid-stride walk over the
// (row, 32-block) pairs of an R x K operand, the zeroing of swizzled scale padding, and
// the host-side grid size (enough CTAs to fill the device, no more than the work needs).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::cuda {

// The (row, block) index space of an R x K operand, blocks of 32 along K, walked in
// row-major order by `step` workers at once (worker w takes blocks w, w + step, ...).
// step_rows/step_cols are step / n_blocks and step % n_blocks, so that workers advance
// without dividing. Validation keeps R and K below 2^31; a cursor runs at most a few steps
// past the last row (step is at most the number of resident groups), so 32 bits hold it.
struct BlockGrid {
  std::uint32_t rows = 0;
  std::uint32_t n_blocks = 0;  // ceil(K / 32)
  std::uint32_t step_rows = 0;
  std::uint32_t step_cols = 0;

  static BlockGrid make(std::int64_t rows, std::int64_t k, std::int64_t step) {
    BlockGrid g;
    g.rows = static_cast<std::uint32_t>(rows);
    g.n_blocks = static_cast<std::uint32_t>(scale_cols(k));
    g.step_rows = static_cast<std::uint32_t>(step / g.n_blocks);
    g.step_cols = static_cast<std::uint32_t>(step % g.n_blocks);
    return g;
  }
};

// One worker's position: row and block column.
struct BlockCursor {
  std::uint32_t row, col;

  __device__ __forceinline__ static BlockCursor at(std::uint32_t idx, const BlockGrid& g) {
    const std::uint32_t r = idx / g.n_blocks;
    return {r, idx - r * g.n_blocks};
  }
  __device__ __forceinline__ BlockCursor next(const BlockGrid& g) const {
    BlockCursor c{row + g.step_rows, col + g.step_cols};
    if (c.col >= g.n_blocks) {
      c.col -= g.n_blocks;
      ++c.row;
    }
    return c;
  }
  __device__ __forceinline__ bool valid(const BlockGrid& g) const { return row < g.rows; }
};

// Byte offset of scale (r, c) of an operand with n_scale_cols scale columns, in either
// layout (the index math itself lives in layout.hpp).
__device__ __forceinline__ std::int64_t scale_offset(bool swizzled, std::int64_t r, std::int64_t c,
                                                     std::int64_t n_scale_cols,
                                                     std::int64_t row_stride) {
  return swizzled ? swizzled_scale_offset(r, c, n_scale_cols) : linear_scale_offset(r, c, row_stride);
}

// Writes 0 to every padding byte of the swizzled scales of a rows x (n_scale_cols * 32)
// operand: the scales at column >= n_scale_cols of real rows, and every scale of the
// padding rows. Grid-stride: this thread is `tid` of `nthreads`.
__device__ __forceinline__ void zero_swizzle_padding(std::uint8_t* scales, std::int64_t rows,
                                                     std::int64_t n_scale_cols, std::int64_t tid,
                                                     std::int64_t nthreads) {
  const std::int64_t padded_rows = round_up(rows, kSwizzleRows);
  const std::int64_t padded_cols = round_up(n_scale_cols, kSwizzleCols);
  const std::int64_t extra_cols = padded_cols - n_scale_cols;
  const std::int64_t right = rows * extra_cols;  // real rows, padding columns
  const std::int64_t total = right + (padded_rows - rows) * padded_cols;
  for (std::int64_t i = tid; i < total; i += nthreads) {
    std::int64_t r, c;
    if (i < right) {
      r = i / extra_cols;
      c = n_scale_cols + (i - r * extra_cols);
    } else {
      const std::int64_t j = i - right;
      r = rows + j / padded_cols;
      c = j - (r - rows) * padded_cols;
    }
    scales[swizzled_scale_offset(r, c, n_scale_cols)] = 0;
  }
}

// CTAs for a grid-stride kernel: as many as are resident on the current device at once,
// capped by `work_ctas` (the count that gives every CTA at least one unit of work).
template <typename Kernel>
int resident_grid(Kernel kernel, int threads, std::int64_t work_ctas) {
  const int sms = current_device_sms();
  int per_sm = 0;
  MXGEMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  const std::int64_t resident = std::int64_t{sms} * std::max(per_sm, 1);
  return static_cast<int>(std::clamp<std::int64_t>(work_ctas, 1, resident));
}

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace mxgemm::cuda
