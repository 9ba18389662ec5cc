// The exact CPU reference GEMM, against a naive fp64 triple loop written here from
// MX_FORMAT.md (element decoders and std::ldexp, nothing from the library's GEMM).
//
// What is truly guaranteed, and so what is asserted: every dequantized element and every
// product is exact in fp64; only the fp64 sum rounds, and the contract does not fix its
// order. Summed in any order, K exact products differ from their exact sum by at most
// gamma_K * S (S = sum |products|, gamma_K ~ K * 2^-53), so the library's and the naive
// fp64 sums differ by at most delta ~ 2K * 2^-53 * S (plus the alpha product's rounding).
// Rounding to the output type is monotone, so the output must lie between
// round(naive*alpha - delta) and round(naive*alpha + delta) -- a single value except
// when naive*alpha is within delta of a rounding boundary. NaN and Inf are independent
// of the order, so they must match exactly.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/mx_random.hpp"
#include "mxgemm/elements.hpp"
#include "mxgemm/gemm.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::detail {
// Defined in src/cpu/reference_gemm.cpp: forces the portable micro-kernel.
void reference_gemm_force_portable_kernel(bool force);
}  // namespace mxgemm::detail

namespace mxgemm {
namespace {

using testing::HostMxOperand;
using testing::HostOutput;
using testing::MxOptions;
using testing::random_mx_operand;

// ---- the naive reference --------------------------------------------------------------

// sum[m][n] = sum_k a[m,k] * b[n,k] in increasing k, and abs_sum = sum_k |a*b| (for the
// error bound), both in fp64 over exactly dequantized operands.
struct Naive {
  std::int64_t m = 0, n = 0, k = 0;
  std::vector<double> sum, abs_sum;
};

Naive naive_gemm(const HostMxOperand& a, const HostMxOperand& b) {
  const std::vector<double> da = testing::dequantize_naive(a);
  const std::vector<double> db = testing::dequantize_naive(b);
  Naive r;
  r.m = a.rows;
  r.n = b.rows;
  r.k = a.k;
  r.sum.resize(static_cast<size_t>(r.m * r.n));
  r.abs_sum.resize(r.sum.size());
  for (std::int64_t i = 0; i < r.m; ++i) {
    for (std::int64_t j = 0; j < r.n; ++j) {
      double s = 0.0, abs_s = 0.0;
      for (std::int64_t k = 0; k < r.k; ++k) {
        const double p = da[i * r.k + k] * db[j * r.k + k];
        s += p;
        abs_s += std::fabs(p);
      }
      r.sum[i * r.n + j] = s;
      r.abs_sum[i * r.n + j] = abs_s;
    }
  }
  return r;
}

// Checks one output against the guarantee described at the top of this file.
::testing::AssertionResult matches_naive(DType t, double got, double sum, double abs_sum,
                                         float alpha, std::int64_t k) {
  const double x = sum * static_cast<double>(alpha);
  if (!std::isfinite(x)) {
    const bool ok = std::isnan(x) ? std::isnan(got) : got == x;
    if (ok) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected " << x << ", got " << got;
  }
  const double delta = std::fabs(static_cast<double>(alpha)) * abs_sum *
                       static_cast<double>(2 * k + 8) * std::ldexp(1.0, -53);
  const double lo = testing::round_to(t, x - delta);
  const double hi = testing::round_to(t, x + delta);
  if (lo <= got && got <= hi) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected in [" << lo << ", " << hi << "] (naive "
                                       << x << "), got " << got;
}

// Every output of d against the naive sums; reports the first few mismatches.
void expect_matches_naive(const HostOutput& d, const Naive& ref, float alpha) {
  ASSERT_EQ(d.rows, ref.m);
  ASSERT_EQ(d.cols, ref.n);
  int failures = 0;
  for (std::int64_t i = 0; i < ref.m; ++i) {
    for (std::int64_t j = 0; j < ref.n; ++j) {
      const auto r = matches_naive(d.dtype, d.at(i, j), ref.sum[i * ref.n + j],
                                   ref.abs_sum[i * ref.n + j], alpha, ref.k);
      if (!r && ++failures <= 5) ADD_FAILURE() << "D[" << i << "," << j << "]: " << r.message();
    }
  }
  EXPECT_EQ(failures, 0) << "outputs not matching the naive fp64 reference";
}

HostOutput run_reference(const HostMxOperand& a, const HostMxOperand& b, float alpha, DType out,
                         std::int64_t out_stride_pad = 0) {
  HostOutput d(out, a.rows, b.rows, out_stride_pad);
  mxfp8_scaled_mm_reference(a.view(), b.view(), alpha, d.view());
  return d;
}

// Same bytes in the M x N elements (the gap is checked separately).
bool same_outputs(const HostOutput& x, const HostOutput& y) {
  if (x.dtype != y.dtype || x.rows != y.rows || x.cols != y.cols) return false;
  const int size = dtype_size(x.dtype);
  for (std::int64_t r = 0; r < x.rows; ++r)
    if (std::memcmp(&x.bytes[r * x.stride * size], &y.bytes[r * y.stride * size],
                    static_cast<size_t>(x.cols * size)) != 0)
      return false;
  return true;
}

std::string out_name(DType t) {
  return t == DType::FP32 ? "fp32" : t == DType::BF16 ? "bf16" : "fp16";
}

// ---- shapes x output types ---------------------------------------------------------------

struct Shape {
  std::int64_t m, n, k;
};

class ReferenceGemmShapes : public ::testing::TestWithParam<std::tuple<Shape, DType>> {};

TEST_P(ReferenceGemmShapes, MatchesNaiveFp64Loop) {
  const auto [shape, out] = GetParam();
  std::mt19937 rng(static_cast<unsigned>(shape.m * 1000003 + shape.n * 1009 + shape.k));
  const HostMxOperand a = random_mx_operand(shape.m, shape.k, rng);
  const HostMxOperand b = random_mx_operand(shape.n, shape.k, rng);
  const HostOutput d = run_reference(a, b, 1.0f, out);
  expect_matches_naive(d, naive_gemm(a, b), 1.0f);
  // The data exercises ordinary values, not just overflow or underflow.
  std::int64_t ordinary = 0;
  for (std::int64_t i = 0; i < d.rows; ++i) {
    for (std::int64_t j = 0; j < d.cols; ++j) {
      const double v = d.at(i, j);
      ordinary += std::isfinite(v) && v != 0.0;
    }
  }
  EXPECT_GE(2 * ordinary, d.rows * d.cols);
}

INSTANTIATE_TEST_SUITE_P(
    ReferenceGemmOddShapes, ReferenceGemmShapes,
    ::testing::Combine(::testing::Values(Shape{1, 1, 32}, Shape{7, 13, 48}, Shape{129, 65, 96},
                                         Shape{300, 200, 1024},
                                         Shape{33, 17, 80},  // K % 32 == 16: short last block
                                         Shape{5, 3, 16}),   // K = 16: one short block
                       ::testing::Values(DType::FP32, DType::BF16, DType::FP16)),
    [](const auto& info) {
      const Shape s = std::get<0>(info.param);
      return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + "_" +
             out_name(std::get<1>(info.param));
    });

// ---- scale layouts ----------------------------------------------------------------------

// Every combination of layouts (linear with a gap between rows) gives the same bits, and
// they match the naive loop, which reads the logical scales only.
TEST(ReferenceGemm, ScaleLayoutsGiveIdenticalResults) {
  std::mt19937 rng(11);
  HostMxOperand a = random_mx_operand(130, 80, rng);  // 130 rows pad to 256; 3 scale cols to 4
  HostMxOperand b = random_mx_operand(70, 80, rng);
  const Naive ref = naive_gemm(a, b);
  a.relayout(ScaleLayout::Linear, /*linear_stride_pad=*/5);
  b.relayout(ScaleLayout::Linear, 5);
  const HostOutput base = run_reference(a, b, 1.0f, DType::FP32);
  expect_matches_naive(base, ref, 1.0f);
  for (const ScaleLayout la : {ScaleLayout::Linear, ScaleLayout::Swizzled128x4}) {
    for (const ScaleLayout lb : {ScaleLayout::Linear, ScaleLayout::Swizzled128x4}) {
      a.relayout(la);
      b.relayout(lb);
      EXPECT_TRUE(same_outputs(run_reference(a, b, 1.0f, DType::FP32), base))
          << "layouts a=" << layout_name(la) << " b=" << layout_name(lb);
    }
  }
}

// Padding bytes of the swizzled layout are never read: NaN (0xFF), zero or any other
// byte there leaves D unchanged.
TEST(ReferenceGemm, SwizzlePaddingIsIgnored) {
  std::mt19937 rng(12);
  HostMxOperand a = random_mx_operand(130, 80, rng);
  HostMxOperand b = random_mx_operand(70, 80, rng);
  a.relayout(ScaleLayout::Swizzled128x4, 0, 0x00);
  b.relayout(ScaleLayout::Swizzled128x4, 0, 0x00);
  const HostOutput base = run_reference(a, b, 1.0f, DType::BF16);
  expect_matches_naive(base, naive_gemm(a, b), 1.0f);
  for (const std::uint8_t pad : {std::uint8_t{0xFF}, std::uint8_t{0xFE}, std::uint8_t{0x7F}}) {
    a.relayout(ScaleLayout::Swizzled128x4, 0, pad);
    b.relayout(ScaleLayout::Swizzled128x4, 0, pad);
    EXPECT_TRUE(same_outputs(run_reference(a, b, 1.0f, DType::BF16), base))
        << "padding byte " << int{pad};
  }
}

// ---- element types, strides, alpha ------------------------------------------------------

TEST(ReferenceGemm, MixedElementTypes) {
  const std::pair<DType, DType> mixes[] = {
      {DType::E4M3, DType::E5M2}, {DType::E5M2, DType::E4M3}, {DType::E5M2, DType::E5M2}};
  std::mt19937 rng(13);
  for (const auto& [ta, tb] : mixes) {
    MxOptions oa, ob;
    oa.dtype = ta;
    ob.dtype = tb;
    const HostMxOperand a = random_mx_operand(45, 112, rng, oa);
    const HostMxOperand b = random_mx_operand(38, 112, rng, ob);
    const Naive ref = naive_gemm(a, b);
    for (const DType out : {DType::FP32, DType::BF16}) {
      SCOPED_TRACE(std::string(dtype_name(ta)) + " x " + dtype_name(tb) + " -> " + out_name(out));
      expect_matches_naive(run_reference(a, b, 1.0f, out), ref, 1.0f);
    }
  }
}

// Row strides of a, b (gaps full of NaN codes), linear scales (gaps of 0xFF) and d (gap
// full of a sentinel that must survive).
TEST(ReferenceGemm, StridedOperandsAndOutput) {
  std::mt19937 rng(14);
  MxOptions oa, ob;
  oa.data_stride_pad = 16;
  ob.data_stride_pad = 48;
  oa.layout = ob.layout = ScaleLayout::Linear;
  oa.scale_stride_pad = 3;
  ob.scale_stride_pad = 1;
  const HostMxOperand a = random_mx_operand(21, 208, rng, oa);
  const HostMxOperand b = random_mx_operand(19, 208, rng, ob);
  const Naive ref = naive_gemm(a, b);
  for (const DType out : {DType::FP32, DType::BF16, DType::FP16}) {
    SCOPED_TRACE(out_name(out));
    const HostOutput d = run_reference(a, b, 1.0f, out, /*out_stride_pad=*/5);
    EXPECT_TRUE(d.gap_untouched()) << "bytes between rows of d were written";
    expect_matches_naive(d, ref, 1.0f);
  }
}

TEST(ReferenceGemm, AlphaIsApplied) {
  std::mt19937 rng(15);
  const HostMxOperand a = random_mx_operand(17, 96, rng);
  const HostMxOperand b = random_mx_operand(23, 96, rng);
  const Naive ref = naive_gemm(a, b);
  for (const float alpha : {0.375f, -3.0f, 1e-3f, 7.1e3f}) {
    for (const DType out : {DType::FP32, DType::FP16}) {
      SCOPED_TRACE("alpha " + std::to_string(alpha) + " -> " + out_name(out));
      expect_matches_naive(run_reference(a, b, alpha, out), ref, alpha);
    }
  }
  // A power-of-two alpha scales fp32 results exactly (no overflow at these scales).
  const HostOutput one = run_reference(a, b, 1.0f, DType::FP32);
  const HostOutput four = run_reference(a, b, 4.0f, DType::FP32);
  const HostOutput zero = run_reference(a, b, 0.0f, DType::FP32);
  for (std::int64_t i = 0; i < a.rows; ++i) {
    for (std::int64_t j = 0; j < b.rows; ++j) {
      EXPECT_EQ(four.at(i, j), 4.0 * one.at(i, j)) << i << "," << j;
      EXPECT_EQ(zero.at(i, j), 0.0) << i << "," << j;
    }
  }
}

// ---- NaN and Inf ----------------------------------------------------------------------------

// Operands whose products can never overflow FP16 when summed over K <= 80: elements
// <= 448 * 2^-5 = 14, products <= 196, sums <= 15680 < 65504. So every output not fed
// by a NaN is finite, whatever the random draw.
MxOptions small_values(ScaleLayout layout = ScaleLayout::Swizzled128x4,
                       DType dtype = DType::E4M3) {
  MxOptions o;
  o.layout = layout;
  o.dtype = dtype;
  o.scale_lo = 112;
  o.scale_hi = 122;
  return o;
}

// Expects NaN exactly where `is_nan(row, col)` says, finite values elsewhere.
template <typename Pred>
void expect_nan_pattern(const HostOutput& d, Pred is_nan) {
  int wrong = 0;
  for (std::int64_t i = 0; i < d.rows; ++i) {
    for (std::int64_t j = 0; j < d.cols; ++j) {
      const double v = d.at(i, j);
      const bool ok = is_nan(i, j) ? std::isnan(v) : std::isfinite(v);
      if (!ok && ++wrong <= 5)
        ADD_FAILURE() << "D[" << i << "," << j << "] = " << v << ", expected "
                      << (is_nan(i, j) ? "NaN" : "finite");
    }
  }
  EXPECT_EQ(wrong, 0);
}

// A NaN scale poisons exactly the outputs its block feeds: one row (A) or column (B).
// K = 80 makes the last block short; A's NaN sits in it.
TEST(ReferenceGemm, NanScalePoisonsItsRowOrColumn) {
  for (const ScaleLayout layout : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear}) {
    SCOPED_TRACE(layout_name(layout));
    std::mt19937 rng(16);
    const MxOptions o = small_values(layout);
    HostMxOperand a = random_mx_operand(9, 80, rng, o);
    HostMxOperand b = random_mx_operand(13, 80, rng, o);
    a.set_scale(3, 2, testing::kScaleNaN);
    b.set_scale(5, 0, testing::kScaleNaN);
    for (const DType out : {DType::FP32, DType::BF16, DType::FP16}) {
      SCOPED_TRACE(out_name(out));
      expect_nan_pattern(run_reference(a, b, 1.0f, out),
                         [](std::int64_t i, std::int64_t j) { return i == 3 || j == 5; });
    }
  }
}

TEST(ReferenceGemm, NanElementPoisonsItsRowOrColumn) {
  std::mt19937 rng(17);
  MxOptions ob;
  ob.dtype = DType::E5M2;
  HostMxOperand a = random_mx_operand(6, 80, rng);
  HostMxOperand b = random_mx_operand(11, 80, rng, ob);
  a.set_code(2, 17, 0xFF);  // E4M3 negative NaN
  b.set_code(4, 79, testing::nan_code(DType::E5M2));
  const HostOutput d = run_reference(a, b, 1.0f, DType::FP32);
  expect_nan_pattern(d, [](std::int64_t i, std::int64_t j) { return i == 2 || j == 4; });
  expect_matches_naive(d, naive_gemm(a, b), 1.0f);
}

// E5M2 infinities follow IEEE: Inf * 0 is NaN, Inf * finite nonzero is a signed Inf.
TEST(ReferenceGemm, E5M2InfinityFollowsIeee) {
  std::mt19937 rng(18);
  MxOptions oa;
  oa.dtype = DType::E5M2;
  HostMxOperand a = random_mx_operand(3, 64, rng, oa);
  HostMxOperand b = random_mx_operand(4, 64, rng);
  a.set_code(0, 5, testing::kE5M2PosInf);
  b.set_code(0, 5, 0x00);  // +0
  b.set_code(1, 5, 0x80);  // -0
  b.set_code(2, 5, 0x38);  // +1.0 (E4M3)
  b.set_code(3, 5, 0xB8);  // -1.0
  const Naive ref = naive_gemm(a, b);
  for (const DType out : {DType::FP32, DType::BF16}) {
    SCOPED_TRACE(out_name(out));
    const HostOutput d = run_reference(a, b, 1.0f, out);
    EXPECT_TRUE(std::isnan(d.at(0, 0)));
    EXPECT_TRUE(std::isnan(d.at(0, 1)));
    EXPECT_EQ(d.at(0, 2), std::numeric_limits<double>::infinity());
    EXPECT_EQ(d.at(0, 3), -std::numeric_limits<double>::infinity());
    for (std::int64_t i = 1; i < 3; ++i)
      for (std::int64_t j = 0; j < 4; ++j) EXPECT_TRUE(std::isfinite(d.at(i, j))) << i << "," << j;
    expect_matches_naive(d, ref, 1.0f);
  }
}

// ---- extreme scales -----------------------------------------------------------------------

// Scale bytes 0..10 and 245..254: products span 2^-272..2^272, fp64 holds them all
// exactly; outputs overflow to Inf or underflow to zero exactly as the naive loop says.
TEST(ReferenceGemm, ExtremeScalesMatchNaive) {
  std::mt19937 rng(19);
  HostMxOperand a = random_mx_operand(37, 160, rng);
  HostMxOperand b = random_mx_operand(29, 160, rng);
  std::uniform_int_distribution<int> pick(0, 21);
  auto extreme = [&] {
    const int v = pick(rng);
    return static_cast<std::uint8_t>(v <= 10 ? v : 245 + (v - 12));  // 0..10 or 245..254
  };
  for (HostMxOperand* op : {&a, &b})
    for (std::int64_t r = 0; r < op->rows; ++r)
      for (std::int64_t c = 0; c < op->n_scale_cols(); ++c) op->set_scale(r, c, extreme());
  // Row 0 of both all tiny (an output that underflows), row 1 of both all huge (overflow).
  for (HostMxOperand* op : {&a, &b}) {
    for (std::int64_t c = 0; c < op->n_scale_cols(); ++c) {
      op->set_scale(0, c, 3);
      op->set_scale(1, c, 250);
    }
  }
  const Naive ref = naive_gemm(a, b);
  for (const DType out : {DType::FP32, DType::BF16, DType::FP16}) {
    SCOPED_TRACE(out_name(out));
    const HostOutput d = run_reference(a, b, 1.0f, out);
    expect_matches_naive(d, ref, 1.0f);
    int infs = 0, zeros = 0;
    for (std::int64_t i = 0; i < d.rows; ++i) {
      for (std::int64_t j = 0; j < d.cols; ++j) {
        infs += std::isinf(d.at(i, j));
        zeros += d.at(i, j) == 0.0;
      }
    }
    // The extremes were reached (otherwise this test would prove little).
    EXPECT_GT(infs, 0);
    EXPECT_GT(zeros, 0);
  }
}

// ---- determinism --------------------------------------------------------------------------

// Resets the portable-kernel switch however the test exits.
struct ForcePortableKernel {
  ForcePortableKernel() { detail::reference_gemm_force_portable_kernel(true); }
  ~ForcePortableKernel() { detail::reference_gemm_force_portable_kernel(false); }
};

// Large enough to run on several threads; odd M and N leave partial register tiles.
TEST(ReferenceGemm, DeterministicAcrossRunsAndKernels) {
  std::mt19937 rng(20);
  const HostMxOperand a = random_mx_operand(301, 1040, rng);
  const HostMxOperand b = random_mx_operand(203, 1040, rng);
  const HostOutput first = run_reference(a, b, 1.0f, DType::FP32);
  EXPECT_TRUE(same_outputs(run_reference(a, b, 1.0f, DType::FP32), first));
  {
    ForcePortableKernel portable;
    const HostOutput p = run_reference(a, b, 1.0f, DType::FP32);
    EXPECT_TRUE(same_outputs(p, first)) << "portable and vector kernels differ";
    expect_matches_naive(p, naive_gemm(a, b), 1.0f);
  }
}

// ---- speed ----------------------------------------------------------------------------------

// Times one FP32 GEMM and spot-checks a few outputs against the naive sum.
double time_reference(std::int64_t m, std::int64_t n, std::int64_t k, unsigned seed) {
  std::mt19937 rng(seed);
  const HostMxOperand a = random_mx_operand(m, k, rng);
  const HostMxOperand b = random_mx_operand(n, k, rng);
  HostOutput d(DType::FP32, m, n);
  const auto t0 = std::chrono::steady_clock::now();
  mxfp8_scaled_mm_reference(a.view(), b.view(), 1.0f, d.view());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing   ] %lldx%lldx%lld fp32: %.4f s\n", static_cast<long long>(m),
              static_cast<long long>(n), static_cast<long long>(k), seconds);

  const std::vector<double> da = testing::dequantize_naive(a);
  const std::vector<double> db = testing::dequantize_naive(b);
  std::uniform_int_distribution<std::int64_t> row(0, m - 1), col(0, n - 1);
  for (int t = 0; t < 32; ++t) {
    const std::int64_t i = t == 0 ? m - 1 : row(rng), j = t == 0 ? n - 1 : col(rng);
    double s = 0.0, abs_s = 0.0;
    for (std::int64_t kk = 0; kk < k; ++kk) {
      s += da[i * k + kk] * db[j * k + kk];
      abs_s += std::fabs(da[i * k + kk] * db[j * k + kk]);
    }
    EXPECT_TRUE(matches_naive(DType::FP32, d.at(i, j), s, abs_s, 1.0f, k)) << i << "," << j;
  }
  return seconds;
}

TEST(ReferenceGemmTiming, Fp32_512Cubed_UnderOneSecond) {
  EXPECT_LT(time_reference(512, 512, 512, 21), 1.0);
}

TEST(ReferenceGemmTiming, Fp32_1000x1000x1008) {
  // ~1G multiply-adds; a loose bound that still catches a fall back to naive speed.
  EXPECT_LT(time_reference(1000, 1000, 1008, 22), 10.0);
}

}  // namespace
}  // namespace mxgemm
