// Random BF16/FP16 host matrices for the weight-only GEMM tests (the activations).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "mxgemm/elements.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::testing {

struct HostWide {
  std::int64_t rows = 0, cols = 0, stride = 0;
  DType dtype = DType::BF16;
  std::vector<std::uint16_t> bits;  // rows x stride; the gap holds NaN

  double at(std::int64_t r, std::int64_t c) const {
    const std::uint16_t b = bits[r * stride + c];
    return dtype == DType::BF16 ? decode_bf16(b) : decode_fp16(b);
  }
  void set(std::int64_t r, std::int64_t c, double v) {
    bits[r * stride + c] = dtype == DType::BF16 ? encode_bf16(v) : encode_fp16(v);
  }
  ConstMatrixView view(Memory memory = Memory::Host) const {
    return ConstMatrixView(bits.data(), rows, cols, stride, dtype, memory);
  }
  // The same values with every sign cleared (|a|, for the summation bound).
  HostWide absolute() const {
    HostWide h = *this;
    for (auto& b : h.bits) b &= 0x7FFF;
    return h;
  }
};

// Normal(0, sigma) values rounded to the type; row stride cols + stride_pad.
inline HostWide random_wide(std::int64_t rows, std::int64_t cols, DType t, std::mt19937& rng,
                            double sigma = 1.0, std::int64_t stride_pad = 0) {
  HostWide h;
  h.rows = rows;
  h.cols = cols;
  h.stride = cols + stride_pad;
  h.dtype = t;
  h.bits.assign(static_cast<size_t>(rows * h.stride), t == DType::BF16 ? 0x7FC0 : 0x7E00);
  std::normal_distribution<double> dist(0.0, sigma);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) h.set(r, c, dist(rng));
  return h;
}

}  // namespace mxgemm::testing
