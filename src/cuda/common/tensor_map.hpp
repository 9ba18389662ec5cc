// Host-side creation of TMA tensor maps through the driver entry point (no -lcuda needed).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace mxgemm::cuda {

// A 2-D tensor map over a row-major byte matrix (rows x cols, `row_pitch` bytes between
// rows) loading boxes of box_rows x box_cols bytes with the given swizzle; elements outside
// the matrix read as zero. `promotion`: how much L2 fetches around each access of a box row
// (256 bytes unless a caller measured better).
CUtensorMap make_tensor_map_2d_u8(const void* base, std::int64_t rows, std::int64_t cols,
                                  std::int64_t row_pitch, int box_rows, int box_cols,
                                  CUtensorMapSwizzle swizzle,
                                  CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B);

}  // namespace mxgemm::cuda
