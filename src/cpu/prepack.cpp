// mxfp8_prepack_weight_reference: the byte moves of KOrder::Prepacked on the host.
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/validate.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/prepack.hpp"

namespace mxgemm {

void mxfp8_prepack_weight_reference(const ConstMatrixView& w, MatrixView out) {
  detail::validate_prepack("mxfp8_prepack_weight_reference", w, out, {Memory::Host, false});
  std::vector<std::uint8_t> row(static_cast<std::size_t>(w.cols));  // out may be w itself
  for (std::int64_t r = 0; r < w.rows; ++r) {
    const auto* src = static_cast<const std::uint8_t*>(w.data) + r * w.row_stride;
    auto* dst = static_cast<std::uint8_t*>(out.data) + r * out.row_stride;
    for (std::int64_t k = 0; k < w.cols; ++k) row[static_cast<std::size_t>(prepacked_column(k))] = src[k];
    std::memcpy(dst, row.data(), row.size());
  }
}

}  // namespace mxgemm
