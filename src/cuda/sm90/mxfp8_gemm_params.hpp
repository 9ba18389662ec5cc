// Kernel parameters of the sm_90a MXFP8 GEMM, filled by the launcher.
#pragma once

#include <cstdint>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Where one operand's E8M0 scales are and how to index them.
struct ScaleSource {
  const std::uint8_t* data;
  std::int64_t row_stride;  // Linear layout: bytes between rows
  bool swizzled;            // Swizzled128x4 (else Linear)
};

struct Mxfp8GemmParams {
  int m, n, k;
  int scale_cols;     // ceil(K / 32)
  int tiles_m, tiles_n, k_stages;
  ScaleSource sa, sb;
  const float* alpha;  // device
  void* d;
  std::int64_t ldd;    // elements
  DType d_dtype;
};

}  // namespace mxgemm::sm90
