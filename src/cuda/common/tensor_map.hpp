// Host-side creation of TMA tensor maps through the driver entry point (no -lcuda needed).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace mxgemm::cuda {

// A 2-D tensor map over a row-major byte matrix (rows x cols, `row_pitch` bytes between
// rows) loading boxes of box_rows x box_cols bytes with the given swizzle; elements outside
// the matrix read as zero.
CUtensorMap make_tensor_map_2d_u8(const void* base, std::int64_t rows, std::int64_t cols,
                                  std::int64_t row_pitch, int box_rows, int box_cols,
                                  CUtensorMapSwizzle swizzle);

}  // namespace mxgemm::cuda
