// Host conversion between the linear and the swizzled 128x4 scale layouts. All index
// math lives in layout.hpp (swizzled_scale_offset / linear_scale_offset); this file only
// walks the index space.
#include "mxgemm/layout.hpp"

#include <cstdint>

#include "core/validate.hpp"

namespace mxgemm {

void scales_to_swizzled(ConstMatrixView linear, MatrixView swizzled, std::int64_t rows,
                        std::int64_t k, std::uint8_t pad_value) {
  detail::validate_scale_conversion("scales_to_swizzled", linear, swizzled, rows, k);
  const auto* src = static_cast<const std::uint8_t*>(linear.data);
  auto* dst = static_cast<std::uint8_t*>(swizzled.data);
  const std::int64_t cols = scale_cols(k);
  const ScaleShape padded = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  // Walk the whole padded index space: the offset function is a bijection onto the
  // padded buffer, so every destination byte is written exactly once, padding included.
  for (std::int64_t r = 0; r < padded.rows; ++r) {
    for (std::int64_t c = 0; c < padded.cols; ++c) {
      const bool inside = r < rows && c < cols;
      dst[swizzled_scale_offset(r, c, cols)] =
          inside ? src[linear_scale_offset(r, c, linear.row_stride)] : pad_value;
    }
  }
}

void scales_to_linear(ConstMatrixView swizzled, MatrixView linear, std::int64_t rows,
                      std::int64_t k) {
  detail::validate_scale_conversion("scales_to_linear", linear, swizzled, rows, k);
  const auto* src = static_cast<const std::uint8_t*>(swizzled.data);
  auto* dst = static_cast<std::uint8_t*>(linear.data);
  const std::int64_t cols = scale_cols(k);
  // Only the (rows, cols) scales are copied; bytes between cols and row_stride of a
  // strided linear destination are left as they were.
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      dst[linear_scale_offset(r, c, linear.row_stride)] = src[swizzled_scale_offset(r, c, cols)];
    }
  }
}

}  // namespace mxgemm
