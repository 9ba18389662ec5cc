// Test helpers shared by the CPU and GPU suites: random MXFP8 operands in host memory,
// scale-layout builders, a naive dequantizer and output buffers with a sentinel-filled
// gap between rows. Everything here is written from MX_FORMAT.md and the element codecs
// only (never from library code under test), except the layout offset functions, which
// are the project's single definition of the swizzle.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "mxgemm/elements.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::testing {

// ---- element codes ------------------------------------------------------------------

inline bool is_nan_code(DType t, std::uint8_t c) {
  return t == DType::E5M2 ? ((c & 0x7C) == 0x7C && (c & 0x03) != 0) : (c & 0x7F) == 0x7F;
}
inline bool is_finite_code(DType t, std::uint8_t c) {
  return t == DType::E5M2 ? (c & 0x7C) != 0x7C : (c & 0x7F) != 0x7F;
}
// Positive quiet NaN and (E5M2 only) +Inf codes.
inline std::uint8_t nan_code(DType t) { return t == DType::E5M2 ? 0x7E : 0x7F; }
constexpr std::uint8_t kE5M2PosInf = 0x7C;
constexpr std::uint8_t kE5M2NegInf = 0xFC;
constexpr std::uint8_t kScaleNaN = 0xFF;

// A uniformly random finite code of an fp8 type (every sign, zero and subnormal included).
inline std::uint8_t random_finite_code(DType t, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  for (;;) {
    const auto c = static_cast<std::uint8_t>(byte(rng));
    if (is_finite_code(t, c)) return c;
  }
}

inline double decode_element(DType t, std::uint8_t c) {
  return t == DType::E5M2 ? decode_e5m2(c) : decode_e4m3(c);
}

// ---- scale layouts --------------------------------------------------------------------

// Stores a logical rows x ceil(k/32) scale matrix (row-major, unpadded) in the swizzled
// 128x4 layout; every padding byte is `pad` (0xFF by default: were it ever read, the
// result would turn NaN).
inline std::vector<std::uint8_t> swizzle_scales(const std::vector<std::uint8_t>& logical,
                                                std::int64_t rows, std::int64_t k,
                                                std::uint8_t pad = kScaleNaN) {
  const std::int64_t cols = scale_cols(k);
  const ScaleShape shape = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  std::vector<std::uint8_t> out(static_cast<size_t>(shape.rows * shape.cols), pad);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      out[swizzled_scale_offset(r, c, cols)] = logical[r * cols + c];
  return out;
}

// Stores a logical scale matrix linearly with row stride `stride` >= ceil(k/32); the gap
// between rows is `pad`.
inline std::vector<std::uint8_t> linear_scales(const std::vector<std::uint8_t>& logical,
                                               std::int64_t rows, std::int64_t k,
                                               std::int64_t stride, std::uint8_t pad = kScaleNaN) {
  const std::int64_t cols = scale_cols(k);
  std::vector<std::uint8_t> out(static_cast<size_t>(rows * stride), pad);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      out[linear_scale_offset(r, c, stride)] = logical[r * cols + c];
  return out;
}

// ---- MX operands ----------------------------------------------------------------------

// An R x K MXFP8 operand in host memory. `logical_scales` (rows x ceil(k/32), row-major)
// is the truth; `scales` holds the same values stored in `layout`. Change elements and
// scales through set_code / set_scale, which keep both in step.
struct HostMxOperand {
  std::int64_t rows = 0;
  std::int64_t k = 0;
  DType dtype = DType::E4M3;
  ScaleLayout layout = ScaleLayout::Swizzled128x4;
  std::int64_t data_stride = 0;   // elements (bytes) between rows of `data`, >= k
  std::int64_t scale_stride = 0;  // row stride of `scales` viewed as a matrix
  std::uint8_t scale_pad = kScaleNaN;
  std::vector<std::uint8_t> data;            // rows x data_stride; the gap holds NaN codes
  std::vector<std::uint8_t> logical_scales;  // rows x ceil(k/32)
  std::vector<std::uint8_t> scales;          // stored bytes in `layout`

  std::int64_t n_scale_cols() const { return scale_cols(k); }
  std::uint8_t code(std::int64_t r, std::int64_t c) const { return data[r * data_stride + c]; }
  void set_code(std::int64_t r, std::int64_t c, std::uint8_t v) { data[r * data_stride + c] = v; }
  std::uint8_t scale(std::int64_t r, std::int64_t c) const {
    return logical_scales[r * n_scale_cols() + c];
  }
  void set_scale(std::int64_t r, std::int64_t c, std::uint8_t v) {
    logical_scales[r * n_scale_cols() + c] = v;
    scales[layout == ScaleLayout::Swizzled128x4 ? swizzled_scale_offset(r, c, n_scale_cols())
                                                : linear_scale_offset(r, c, scale_stride)] = v;
  }
  // Re-stores the logical scales in another layout (and padding byte).
  void relayout(ScaleLayout l, std::int64_t linear_stride_pad = 0, std::uint8_t pad = kScaleNaN) {
    layout = l;
    scale_pad = pad;
    if (l == ScaleLayout::Swizzled128x4) {
      scale_stride = scale_shape(rows, k, l).cols;
      scales = swizzle_scales(logical_scales, rows, k, pad);
    } else {
      scale_stride = n_scale_cols() + linear_stride_pad;
      scales = linear_scales(logical_scales, rows, k, scale_stride, pad);
    }
  }

  ConstMxOperand view(Memory memory = Memory::Host) const {
    const ScaleShape shape = scale_shape(rows, k, layout);
    return ConstMxOperand(
        ConstMatrixView(data.data(), rows, k, data_stride, dtype, memory),
        ConstMatrixView(scales.data(), shape.rows, shape.cols, scale_stride, DType::E8M0, memory),
        layout);
  }
};

struct MxOptions {
  DType dtype = DType::E4M3;
  ScaleLayout layout = ScaleLayout::Swizzled128x4;
  std::int64_t data_stride_pad = 0;   // extra elements between rows of data
  std::int64_t scale_stride_pad = 0;  // extra bytes between rows of linear scales
  // Scale bytes are uniform in [scale_lo, scale_hi]. The default 2^-11..2^-3 keeps E4M3
  // products (<= 448^2 * 2^-6) small enough that sums over a few thousand k usually fit
  // FP16 (max 65504); wider ranges would make most FP16 outputs Inf and prove little.
  int scale_lo = 116;
  int scale_hi = 124;
  std::uint8_t scale_pad = kScaleNaN;  // swizzle padding / linear gap bytes
};

// Random finite elements and random scale bytes in [scale_lo, scale_hi].
inline HostMxOperand random_mx_operand(std::int64_t rows, std::int64_t k, std::mt19937& rng,
                                       const MxOptions& o = {}) {
  HostMxOperand op;
  op.rows = rows;
  op.k = k;
  op.dtype = o.dtype;
  op.data_stride = k + o.data_stride_pad;
  op.data.assign(static_cast<size_t>(rows * op.data_stride), nan_code(o.dtype));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < k; ++c) op.set_code(r, c, random_finite_code(o.dtype, rng));
  std::uniform_int_distribution<int> scale(o.scale_lo, o.scale_hi);
  op.logical_scales.resize(static_cast<size_t>(rows * op.n_scale_cols()));
  for (auto& s : op.logical_scales) s = static_cast<std::uint8_t>(scale(rng));
  op.relayout(o.layout, o.scale_stride_pad, o.scale_pad);
  return op;
}

// The exact value of every element, rows x k row-major: decode(code) * 2^(scale - 127),
// NaN for scale byte 0xFF. Reads only the logical scales, so it is independent of the
// layout under test.
inline std::vector<double> dequantize_naive(const HostMxOperand& op) {
  std::vector<double> out(static_cast<size_t>(op.rows * op.k));
  for (std::int64_t r = 0; r < op.rows; ++r) {
    for (std::int64_t c = 0; c < op.k; ++c) {
      const std::uint8_t s = op.scale(r, c / kBlockSize);
      const double v = decode_element(op.dtype, op.code(r, c));
      out[r * op.k + c] =
          s == kScaleNaN ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(v, s - 127);
    }
  }
  return out;
}

// ---- outputs --------------------------------------------------------------------------

// A rows x cols output (FP32, BF16 or FP16) with row stride `stride` >= cols, every byte
// first set to `sentinel` so tests can check that the gap between rows is left alone.
struct HostOutput {
  static constexpr std::uint8_t kSentinel = 0xA5;
  DType dtype = DType::FP32;
  std::int64_t rows = 0, cols = 0, stride = 0;
  std::vector<std::uint8_t> bytes;

  HostOutput(DType t, std::int64_t r, std::int64_t c, std::int64_t stride_pad = 0)
      : dtype(t), rows(r), cols(c), stride(c + stride_pad),
        bytes(static_cast<size_t>(r * (c + stride_pad) * dtype_size(t)), kSentinel) {}

  MatrixView view(Memory memory = Memory::Host) {
    return MatrixView(bytes.data(), rows, cols, stride, dtype, memory);
  }
  // The value of element (r, c) as a double.
  double at(std::int64_t r, std::int64_t c) const {
    const std::uint8_t* p = bytes.data() + (r * stride + c) * dtype_size(dtype);
    if (dtype == DType::FP32) {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
    std::uint16_t h;
    std::memcpy(&h, p, sizeof h);
    return dtype == DType::BF16 ? decode_bf16(h) : decode_fp16(h);
  }
  // True when every byte outside the rows x cols elements still holds the sentinel.
  bool gap_untouched() const {
    const int size = dtype_size(dtype);
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t b = cols * size; b < stride * size; ++b)
        if (bytes[r * stride * size + b] != kSentinel) return false;
    return true;
  }
};

// Rounds v to the output type (round to nearest even, overflow to Inf) and back.
inline double round_to(DType t, double v) {
  switch (t) {
    case DType::FP32: return static_cast<float>(v);
    case DType::BF16: return decode_bf16(encode_bf16(v));
    case DType::FP16: return decode_fp16(encode_fp16(v));
    default: throw std::invalid_argument("round_to: not an output type");
  }
}

}  // namespace mxgemm::testing
