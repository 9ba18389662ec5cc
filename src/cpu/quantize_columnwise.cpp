// CPU reference for columnwise quantization: transpose x, then quantize it rowwise with
// the reference quantizer. Simple on purpose: it is the oracle for the GPU kernel.
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/validate.hpp"
#include "mxgemm/quantize.hpp"

namespace mxgemm {

void quantize_mxfp8_columnwise_reference(ConstMatrixView x, const MxOperand& qt,
                                         ScaleRounding rounding) {
  detail::validate_quantize_columnwise("quantize_mxfp8_columnwise_reference", x, qt,
                                       {Memory::Host, false});
  const std::int64_t rows = x.rows, cols = x.cols;
  const auto size = static_cast<std::size_t>(dtype_size(x.dtype));
  std::vector<std::uint8_t> xt(static_cast<std::size_t>(rows * cols) * size);  // cols x rows
  const auto* src = static_cast<const std::uint8_t*>(x.data);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      std::memcpy(&xt[static_cast<std::size_t>(c * rows + r) * size],
                  src + static_cast<std::size_t>(r * x.row_stride + c) * size, size);
  quantize_mxfp8_reference(contiguous(static_cast<const void*>(xt.data()), cols, rows, x.dtype,
                                      Memory::Host),
                           qt, rounding);
}

}  // namespace mxgemm
