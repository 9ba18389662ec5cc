// Uses an installed mxgemm through find_package(mxgemm): the scale layout math and the
// linear -> swizzled conversion, plus the backend query (links the CUDA runtime).
// Returns non-zero on any failure.
#include <mxgemm/mxgemm.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {
int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  using namespace mxgemm;

  // The check values of MX_FORMAT.md: 8 scale columns, so 2 column tiles.
  check(swizzled_scale_offset(5, 2, 8) == 82, "swizzled_scale_offset(5, 2, 8) == 82");
  check(swizzled_scale_offset(5, 5, 8) == 593, "swizzled_scale_offset(5, 5, 8) == 593");

  // A 130 x 256 operand: 8 scale columns; swizzled pads the rows to 256.
  const std::int64_t rows = 130, k = 256;
  const ScaleShape lin = scale_shape(rows, k, ScaleLayout::Linear);
  const ScaleShape swz = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  check(lin.rows == 130 && lin.cols == 8, "linear scale_shape(130, 256) == (130, 8)");
  check(swz.rows == 256 && swz.cols == 8, "swizzled scale_shape(130, 256) == (256, 8)");

  std::vector<std::uint8_t> linear(static_cast<std::size_t>(lin.rows * lin.cols));
  for (std::int64_t r = 0; r < lin.rows; ++r)
    for (std::int64_t c = 0; c < lin.cols; ++c)
      linear[r * lin.cols + c] = static_cast<std::uint8_t>(100 + (r * 8 + c) % 50);
  std::vector<std::uint8_t> swizzled(static_cast<std::size_t>(swz.rows * swz.cols), 0xAB);
  try {
    scales_to_swizzled(contiguous(static_cast<const void*>(linear.data()), lin.rows, lin.cols,
                                  DType::E8M0, Memory::Host),
                       contiguous(static_cast<void*>(swizzled.data()), swz.rows, swz.cols,
                                  DType::E8M0, Memory::Host),
                       rows, k);
  } catch (const Error& e) {
    std::fprintf(stderr, "FAILED: scales_to_swizzled threw: %s\n", e.what());
    return 1;
  }
  std::int64_t wrong = 0;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < lin.cols; ++c)
      wrong += swizzled[swizzled_scale_offset(r, c, lin.cols)] != linear[r * lin.cols + c];
  check(wrong == 0, "every scale lands at swizzled_scale_offset(r, c)");
  check(swizzled[swizzled_scale_offset(5, 2, 8)] == linear[5 * 8 + 2], "scale (5, 2) at byte 82");
  // Padding rows 130..255 hold the pad value (0 by default).
  std::int64_t bad_pad = 0;
  for (std::int64_t r = rows; r < swz.rows; ++r)
    for (std::int64_t c = 0; c < swz.cols; ++c)
      bad_pad += swizzled[swizzled_scale_offset(r, c, lin.cols)] != 0;
  check(bad_pad == 0, "padding bytes are 0");

  const BackendInfo info = gemm_backend();  // never throws
  std::printf("mxgemm consumer: layout checks %s; GPU backend: %s\n",
              failures ? "FAILED" : "passed",
              info.available ? info.name.c_str() : ("none (" + info.reason + ")").c_str());
  return failures ? 1 : 0;
}
