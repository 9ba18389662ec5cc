// The exact weight-only reference (mxfp8_weight_only_mm_reference): against a naive fp64
// triple loop bit for bit, against the MXFP8 x MXFP8 reference on exactly dequantized
// activations, NaN propagation, and its argument checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/expect_error.hpp"
#include "common/mx_random.hpp"
#include "common/wide_random.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::testing {
namespace {

// sum_k a[m,k] * w[n,k] in fp64, k increasing from +0.0, times alpha, plus bias, rounded once.
HostOutput naive(const HostWide& a, const HostMxOperand& w, double alpha, const std::vector<double>* bias,
                 DType out) {
  const std::vector<double> wv = dequantize_naive(w);
  HostOutput d(out, a.rows, w.rows);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < w.rows; ++j) {
      double s = 0.0;
      for (std::int64_t k = 0; k < a.cols; ++k) s += a.at(i, k) * wv[j * w.k + k];
      double v = s * alpha;
      if (bias != nullptr) v = v + (*bias)[j];
      std::uint8_t* p = d.bytes.data() + (i * d.stride + j) * dtype_size(out);
      if (out == DType::FP32) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
      } else {
        const std::uint16_t h = out == DType::BF16 ? encode_bf16(v) : encode_fp16(v);
        std::memcpy(p, &h, 2);
      }
    }
  return d;
}

TEST(WeightOnlyReference, EqualsNaiveLoopBitForBit) {
  std::mt19937 rng(7);
  struct Case { std::int64_t m, n, k; DType a, out; ScaleLayout layout; bool bias; float alpha; };
  const Case cases[] = {{1, 16, 32, DType::BF16, DType::FP32, ScaleLayout::Swizzled128x4, false, 1.0f},
                        {7, 33, 48, DType::BF16, DType::BF16, ScaleLayout::Linear, true, -0.375f},
                        {65, 20, 272, DType::FP16, DType::FP16, ScaleLayout::Swizzled128x4, true, 2.0f},
                        {130, 70, 96, DType::FP16, DType::FP32, ScaleLayout::Linear, false, 1.0f}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.m << "x" << c.n << "x" << c.k << " a=" << dtype_name(c.a)
                                    << " out=" << dtype_name(c.out) << " bias=" << c.bias);
    const HostWide a = random_wide(c.m, c.k, c.a, rng, 1.0, /*stride_pad=*/3);
    MxOptions o;
    o.layout = c.layout;
    const HostMxOperand w = random_mx_operand(c.n, c.k, rng, o);
    std::vector<float> bias_f(static_cast<size_t>(c.n));
    std::vector<double> bias_d(static_cast<size_t>(c.n));
    std::normal_distribution<float> nd(0.0f, 4.0f);
    for (std::int64_t j = 0; j < c.n; ++j) bias_d[j] = bias_f[j] = nd(rng);
    const ConstMatrixView bias(bias_f.data(), 1, c.n, c.n, DType::FP32, Memory::Host);
    HostOutput got(c.out, c.m, c.n, /*stride_pad=*/2);
    mxfp8_weight_only_mm_reference(a.view(), w.view(), c.alpha, c.bias ? &bias : nullptr, got.view());
    const HostOutput want = naive(a, w, c.alpha, c.bias ? &bias_d : nullptr, c.out);
    for (std::int64_t i = 0; i < c.m; ++i)
      for (std::int64_t j = 0; j < c.n; ++j) {
        const double g = got.at(i, j), e = want.at(i, j);
        ASSERT_TRUE(g == e || (std::isnan(g) && std::isnan(e))) << "(" << i << "," << j << "): " << g << " vs " << e;
      }
    EXPECT_TRUE(got.gap_untouched());
  }
}

// Activations that are an MXFP8 operand dequantized exactly to bf16 give the MXFP8 x MXFP8
// reference's result bit for bit: both sum the same exact products in the same order.
TEST(WeightOnlyReference, AgreesWithTheMxfp8ReferenceOnDequantizedActivations) {
  std::mt19937 rng(11);
  const std::int64_t m = 40, n = 50, k = 208;
  const HostMxOperand a = random_mx_operand(m, k, rng);
  const HostMxOperand b = random_mx_operand(n, k, rng);
  HostWide a_bf16;
  a_bf16.rows = m;
  a_bf16.cols = k;
  a_bf16.stride = k;
  a_bf16.bits.resize(static_cast<size_t>(m * k));
  const std::vector<double> av = dequantize_naive(a);
  for (std::int64_t i = 0; i < m * k; ++i) {
    a_bf16.bits[i] = encode_bf16(av[i]);
    ASSERT_EQ(decode_bf16(a_bf16.bits[i]), av[i]) << "not exact in bf16: the test's premise";
  }
  HostOutput x(DType::FP32, m, n), y(DType::FP32, m, n);
  mxfp8_scaled_mm_reference(a.view(), b.view(), 0.5f, x.view());
  mxfp8_weight_only_mm_reference(a_bf16.view(), b.view(), 0.5f, nullptr, y.view());
  EXPECT_EQ(x.bytes, y.bytes);
}

TEST(WeightOnlyReference, NanActivationsAndScalesPropagate) {
  std::mt19937 rng(3);
  HostWide a = random_wide(10, 64, DType::BF16, rng);
  HostMxOperand w = random_mx_operand(12, 64, rng);
  a.bits[3 * a.stride + 17] = 0x7FC0;  // row 3 of D is NaN
  w.set_scale(5, 1, kScaleNaN);         // column 5 of D is NaN
  HostOutput d(DType::FP32, 10, 12);
  mxfp8_weight_only_mm_reference(a.view(), w.view(), 1.0f, nullptr, d.view());
  for (std::int64_t i = 0; i < 10; ++i)
    for (std::int64_t j = 0; j < 12; ++j)
      EXPECT_EQ(std::isnan(d.at(i, j)), i == 3 || j == 5) << "(" << i << "," << j << ")";
}

TEST(WeightOnlyReference, ArgumentChecks) {
  std::mt19937 rng(5);
  const HostWide a = random_wide(8, 64, DType::BF16, rng);
  const HostMxOperand w = random_mx_operand(16, 64, rng);
  const HostMxOperand w_short = random_mx_operand(16, 32, rng);
  HostOutput d(DType::FP32, 8, 16);
  constexpr const char* fn = "mxfp8_weight_only_mm_reference";
  expect_error<ArgumentError>(
      [&] { mxfp8_weight_only_mm_reference(a.view(), w_short.view(), 1.0f, nullptr, d.view()); },
      {fn, "w.data.cols (K): expected 64 to match a (a is 8x64, w is N x K), got 32"});
  std::vector<float> bias(15);
  const ConstMatrixView short_bias(bias.data(), 1, 15, 15, DType::FP32, Memory::Host);
  expect_error<ArgumentError>(
      [&] { mxfp8_weight_only_mm_reference(a.view(), w.view(), 1.0f, &short_bias, d.view()); },
      {fn, "bias shape: expected 1x16 (one row of N from w), got 1x15"});
  std::vector<std::uint8_t> codes(8 * 64);
  const ConstMatrixView fp8_a(codes.data(), 8, 64, 64, DType::E4M3, Memory::Host);
  expect_error<DtypeError>(
      [&] { mxfp8_weight_only_mm_reference(fp8_a, w.view(), 1.0f, nullptr, d.view()); },
      {fn, "a.dtype: expected bf16 or fp16, got e4m3"});
  HostOutput wrong(DType::FP32, 8, 15);
  expect_error<ArgumentError>(
      [&] { mxfp8_weight_only_mm_reference(a.view(), w.view(), 1.0f, nullptr, wrong.view()); },
      {fn, "d shape: expected 8x16 (M x N from a and w), got 8x15"});
}

// The GPU entry point's own checks, with every view declared Device and skip_checks set so
// that no driver is asked (they come before any backend is chosen, so they run here too).
TEST(WeightOnlyGpuEntry, RejectsBadInputWithTheArgumentNamed) {
  std::mt19937 rng(9);
  const HostWide a = random_wide(8, 64, DType::BF16, rng);
  const HostMxOperand w = random_mx_operand(16, 64, rng);
  HostOutput d(DType::FP32, 8, 16);
  static const float alpha = 1.0f;
  constexpr const char* fn = "mxfp8_weight_only_mm";
  auto run = [&](ConstMatrixView av, ConstMxOperand wv, const float* al, const ConstMatrixView* bias) {
    mxfp8_weight_only_mm(av, wv, al, bias, d.view(Memory::Device), nullptr, /*skip_checks=*/true);
  };
  const ConstMatrixView av = a.view(Memory::Device);
  const ConstMxOperand wv = w.view(Memory::Device);
  {
    ConstMxOperand misaligned = wv;
    misaligned.data.data = static_cast<const std::uint8_t*>(misaligned.data.data) + 8;
    expect_error<ArgumentError>([&] { run(av, misaligned, &alpha, nullptr); },
                                {fn, "w.data: expected a 16-byte aligned address, got address 0x"});
  }
  {
    MxOptions o;
    o.data_stride_pad = 8;  // row stride 72: not a multiple of 16
    const HostMxOperand w72 = random_mx_operand(16, 64, rng, o);
    expect_error<ArgumentError>([&] { run(av, w72.view(Memory::Device), &alpha, nullptr); },
                                {fn, "w.data.row_stride: expected a multiple of 16 elements (16 bytes), got 72"});
  }
  std::vector<std::uint8_t> codes(16);
  const ConstMatrixView fp8_bias(codes.data(), 1, 16, 16, DType::E4M3, Memory::Device);
  expect_error<DtypeError>([&] { run(av, wv, &alpha, &fp8_bias); },
                           {fn, "bias.dtype: expected fp32 or bf16 or fp16, got e4m3"});
  expect_error<ArgumentError>([&] { run(av, wv, nullptr, nullptr); },
                              {fn, "alpha: expected a non-null pointer to one fp32, got null"});
  expect_error<ArgumentError>([&] { run(a.view(Memory::Host), wv, &alpha, nullptr); },
                              {fn, "a.memory", "expected device", "got host"});
  {
    ConstMxOperand linear_shape = wv;
    linear_shape.layout = ScaleLayout::Linear;  // swizzled bytes described as linear
    expect_error<ArgumentError>([&] { run(av, linear_shape, &alpha, nullptr); }, {fn, "w.scales"});
  }
}

}  // namespace
}  // namespace mxgemm::testing
