// The exact host codecs of elements.hpp against two independent references: a decoding
// written here from the bit fields of each format, and the CUDA toolkit's host
// conversions (<cuda_fp8.h>, <cuda_bf16.h>, <cuda_fp16.h>).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "mxgemm/elements.hpp"

namespace mxgemm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Equal as values, with NaN equal to NaN and the sign of zero compared too.
::testing::AssertionResult same_value(double expected, double actual) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  if (expected == actual && std::signbit(expected) == std::signbit(actual)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected " << expected << ", got " << actual;
}

// 2^e by repeated doubling/halving: no ldexp, so independent of the codec under test.
double pow2(int e) {
  double v = 1.0;
  for (; e > 0; --e) v *= 2.0;
  for (; e < 0; ++e) v *= 0.5;
  return v;
}

// Value of an fp8 code straight from the OCP bit fields.
double e4m3_from_fields(std::uint8_t c) {
  const double sign = (c & 0x80) ? -1.0 : 1.0;
  const int exp = (c >> 3) & 0xF;
  const int man = c & 0x7;
  if (exp == 0xF && man == 0x7) return kNaN;  // s.1111.111, the only NaN; no Inf
  if (exp == 0) return sign * (man / 8.0) * pow2(-6);
  return sign * (1.0 + man / 8.0) * pow2(exp - 7);
}

double e5m2_from_fields(std::uint8_t c) {
  const double sign = (c & 0x80) ? -1.0 : 1.0;
  const int exp = (c >> 2) & 0x1F;
  const int man = c & 0x3;
  if (exp == 0x1F) return man == 0 ? sign * kInf : kNaN;
  if (exp == 0) return sign * (man / 4.0) * pow2(-14);
  return sign * (1.0 + man / 4.0) * pow2(exp - 15);
}

double cuda_e4m3(std::uint8_t c) {
  __nv_fp8_e4m3 v;
  v.__x = c;
  return static_cast<float>(v);
}

double cuda_e5m2(std::uint8_t c) {
  __nv_fp8_e5m2 v;
  v.__x = c;
  return static_cast<float>(v);
}

std::uint16_t cuda_bf16_bits(double v) {
  const __nv_bfloat16_raw r = __double2bfloat16(v);
  return r.x;
}

std::uint16_t cuda_fp16_bits(double v) {
  const __half_raw r = __double2half(v);
  return r.x;
}

bool is_nan_code16(std::uint16_t c, int man_bits) {
  const std::uint16_t exp_mask = static_cast<std::uint16_t>(0x7FFF & ~((1u << man_bits) - 1u));
  return (c & exp_mask) == exp_mask && (c & ((1u << man_bits) - 1u)) != 0;
}

// --- decoding: all 256 codes ---------------------------------------------------------

TEST(ElementsDecode, E4M3AllCodesMatchBitFieldsAndCuda) {
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<std::uint8_t>(c);
    SCOPED_TRACE(c);
    EXPECT_TRUE(same_value(e4m3_from_fields(code), decode_e4m3(code)));
    EXPECT_TRUE(same_value(cuda_e4m3(code), decode_e4m3(code)));
  }
  EXPECT_EQ(decode_e4m3(0x7E), 448.0);
  EXPECT_EQ(decode_e4m3(0x01), pow2(-9));
  EXPECT_EQ(decode_e4m3(0x08), pow2(-6));
  EXPECT_TRUE(std::isnan(decode_e4m3(0x7F)));
  EXPECT_TRUE(std::isnan(decode_e4m3(0xFF)));
  EXPECT_FALSE(std::isnan(decode_e4m3(0x78)));  // s.1111.000 is 256, not Inf
}

TEST(ElementsDecode, E5M2AllCodesMatchBitFieldsAndCuda) {
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<std::uint8_t>(c);
    SCOPED_TRACE(c);
    EXPECT_TRUE(same_value(e5m2_from_fields(code), decode_e5m2(code)));
    EXPECT_TRUE(same_value(cuda_e5m2(code), decode_e5m2(code)));
  }
  EXPECT_EQ(decode_e5m2(0x7B), 57344.0);
  EXPECT_EQ(decode_e5m2(0x7C), kInf);
  EXPECT_EQ(decode_e5m2(0xFC), -kInf);
  EXPECT_EQ(decode_e5m2(0x01), pow2(-16));
  for (std::uint8_t nan : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) {
    EXPECT_TRUE(std::isnan(decode_e5m2(nan))) << int(nan);
  }
}

TEST(ElementsDecode, E8M0AllCodes) {
  double expected = pow2(-127);
  for (int c = 0; c < 255; ++c, expected *= 2.0) {
    EXPECT_EQ(decode_e8m0(static_cast<std::uint8_t>(c)), expected) << c;
  }
  EXPECT_TRUE(std::isnan(decode_e8m0(0xFF)));
  EXPECT_EQ(decode_e8m0(0), 0x1p-127);  // the smallest scale, not zero
  EXPECT_EQ(decode_e8m0(127), 1.0);
  EXPECT_EQ(decode_e8m0(254), 0x1p127);
}

TEST(ElementsDecode, SignedZero) {
  EXPECT_TRUE(same_value(-0.0, decode_e4m3(0x80)));
  EXPECT_TRUE(same_value(-0.0, decode_e5m2(0x80)));
  EXPECT_TRUE(same_value(-0.0, decode_bf16(0x8000)));
  EXPECT_TRUE(same_value(-0.0, decode_fp16(0x8000)));
  EXPECT_TRUE(same_value(0.0, decode_e4m3(0x00)));
}

// --- encoding: round trips -----------------------------------------------------------

TEST(ElementsRoundTrip, Fp8EveryNonNanCode) {
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<std::uint8_t>(c);
    SCOPED_TRACE(c);
    const double v4 = decode_e4m3(code);
    if (!std::isnan(v4)) {
      EXPECT_EQ(encode_e4m3(v4, Overflow::Saturate), code);
      EXPECT_EQ(encode_e4m3(v4, Overflow::Ieee), code);
    }
    const double v5 = decode_e5m2(code);
    if (!std::isnan(v5)) {
      EXPECT_EQ(encode_e5m2(v5, Overflow::Ieee), code);
      // Saturate clamps Inf to the largest finite value.
      const std::uint8_t sat = std::isinf(v5) ? static_cast<std::uint8_t>((c & 0x80) | 0x7B) : code;
      EXPECT_EQ(encode_e5m2(v5, Overflow::Saturate), sat);
    }
  }
}

TEST(ElementsRoundTrip, Bf16AndFp16EveryNonNanCode) {
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    const auto code = static_cast<std::uint16_t>(c);
    const double b = decode_bf16(code);
    if (!std::isnan(b)) {
      ASSERT_EQ(encode_bf16(b), code) << c;
    }
    const double h = decode_fp16(code);
    if (!std::isnan(h)) {
      ASSERT_EQ(encode_fp16(h), code) << c;
    }
  }
}

// --- encoding: rounding, saturation, subnormals, zero --------------------------------

TEST(ElementsEncode, E4M3TiesToEven) {
  // 1.0 = 0x38, 1.125 = 0x39, 1.25 = 0x3A: quantum 2^-3 in [1, 2).
  EXPECT_EQ(encode_e4m3(1.0625, Overflow::Saturate), 0x38);  // tie -> even mantissa 0
  EXPECT_EQ(encode_e4m3(1.1875, Overflow::Saturate), 0x3A);  // tie -> even mantissa 2
  EXPECT_EQ(encode_e4m3(std::nextafter(1.0625, 2.0), Overflow::Saturate), 0x39);
  EXPECT_EQ(encode_e4m3(std::nextafter(1.0625, 0.0), Overflow::Saturate), 0x38);
  // 240 = 0x77 and 256 = 0x78: the tie 248 carries into the next exponent.
  EXPECT_EQ(encode_e4m3(248.0, Overflow::Saturate), 0x78);
  EXPECT_EQ(encode_e4m3(-248.0, Overflow::Saturate), 0xF8);
  // 448 + half its quantum is a tie between 448 (even) and 480 (not a value): 448.
  EXPECT_EQ(encode_e4m3(464.0, Overflow::Ieee), 0x7E);
}

TEST(ElementsEncode, E4M3Saturation) {
  EXPECT_EQ(encode_e4m3(500.0, Overflow::Saturate), 0x7E);
  EXPECT_EQ(encode_e4m3(-500.0, Overflow::Saturate), 0xFE);
  EXPECT_EQ(encode_e4m3(500.0, Overflow::Ieee), 0x7F);  // no Inf: NaN
  EXPECT_EQ(encode_e4m3(-500.0, Overflow::Ieee), 0xFF);
  EXPECT_EQ(encode_e4m3(std::nextafter(464.0, 1e9), Overflow::Ieee), 0x7F);
  EXPECT_EQ(encode_e4m3(std::nextafter(464.0, 1e9), Overflow::Saturate), 0x7E);
  EXPECT_EQ(encode_e4m3(kInf, Overflow::Saturate), 0x7E);
  EXPECT_EQ(encode_e4m3(-kInf, Overflow::Ieee), 0xFF);
  EXPECT_EQ(encode_e4m3(kNaN, Overflow::Saturate) & 0x7F, 0x7F);  // NaN stays NaN
}

TEST(ElementsEncode, E5M2Overflow) {
  // 57344 = 0x7B; the tie 61440 rounds to 65536 (even), which overflows.
  EXPECT_EQ(encode_e5m2(57344.0, Overflow::Ieee), 0x7B);
  EXPECT_EQ(encode_e5m2(std::nextafter(61440.0, 0.0), Overflow::Ieee), 0x7B);
  EXPECT_EQ(encode_e5m2(61440.0, Overflow::Ieee), 0x7C);
  EXPECT_EQ(encode_e5m2(-1e6, Overflow::Ieee), 0xFC);
  EXPECT_EQ(encode_e5m2(61440.0, Overflow::Saturate), 0x7B);
  EXPECT_EQ(encode_e5m2(-kInf, Overflow::Saturate), 0xFB);
  EXPECT_EQ(encode_e5m2(kInf, Overflow::Ieee), 0x7C);
}

TEST(ElementsEncode, Fp16AndBf16RoundingAndOverflow) {
  EXPECT_EQ(encode_fp16(65504.0), 0x7BFF);
  EXPECT_EQ(encode_fp16(65519.0), 0x7BFF);  // below the tie
  EXPECT_EQ(encode_fp16(65520.0), 0x7C00);  // the tie rounds to 65536 (even): Inf
  EXPECT_EQ(encode_fp16(-65520.0), 0xFC00);
  EXPECT_EQ(encode_fp16(1.0 + 0x1p-11), 0x3C00);      // tie -> even (1.0)
  EXPECT_EQ(encode_fp16(1.0 + 3 * 0x1p-11), 0x3C02);  // tie -> even (1 + 2^-9)
  EXPECT_EQ(encode_bf16(1.0 + 0x1p-8), 0x3F80);       // tie -> even (1.0)
  EXPECT_EQ(encode_bf16(1.0 + 3 * 0x1p-8), 0x3F82);   // tie -> even (1 + 2^-6)
  EXPECT_EQ(encode_bf16(std::nextafter(1.0 + 0x1p-8, 2.0)), 0x3F81);
  EXPECT_EQ(encode_bf16(0x1.FEp127), 0x7F7F);  // bf16 max
  EXPECT_EQ(encode_bf16(0x1.FFp127), 0x7F80);  // its tie with 2^128 overflows: Inf
}

TEST(ElementsEncode, Subnormals) {
  // E4M3: quantum 2^-9 below 2^-6.
  EXPECT_EQ(encode_e4m3(0x1p-9, Overflow::Saturate), 0x01);
  EXPECT_EQ(encode_e4m3(7 * 0x1p-9, Overflow::Saturate), 0x07);
  EXPECT_EQ(encode_e4m3(7.5 * 0x1p-9, Overflow::Saturate), 0x08);  // tie -> 2^-6, even
  EXPECT_EQ(encode_e4m3(0x1p-10, Overflow::Saturate), 0x00);       // tie -> 0, even
  EXPECT_EQ(encode_e4m3(std::nextafter(0x1p-10, 1.0), Overflow::Saturate), 0x01);
  EXPECT_EQ(encode_e4m3(3 * 0x1p-10, Overflow::Saturate), 0x02);  // tie -> even
  // E5M2: quantum 2^-16 below 2^-14.
  EXPECT_EQ(encode_e5m2(0x1p-16, Overflow::Ieee), 0x01);
  EXPECT_EQ(encode_e5m2(3 * 0x1p-16, Overflow::Ieee), 0x03);
  EXPECT_EQ(encode_e5m2(0x1p-17, Overflow::Ieee), 0x00);
  // FP16 and BF16 smallest subnormals.
  EXPECT_EQ(encode_fp16(0x1p-24), 0x0001);
  EXPECT_EQ(encode_fp16(0x1p-25), 0x0000);
  EXPECT_EQ(encode_bf16(0x1p-133), 0x0001);
  EXPECT_EQ(encode_bf16(3 * 0x1p-134), 0x0002);  // tie -> even
}

TEST(ElementsEncode, SignedZero) {
  EXPECT_EQ(encode_e4m3(-0.0, Overflow::Saturate), 0x80);
  EXPECT_EQ(encode_e4m3(0.0, Overflow::Saturate), 0x00);
  EXPECT_EQ(encode_e4m3(-0x1p-20, Overflow::Saturate), 0x80);  // underflow keeps the sign
  EXPECT_EQ(encode_e5m2(-0x1p-30, Overflow::Ieee), 0x80);
  EXPECT_EQ(encode_fp16(-0x1p-30), 0x8000);
  EXPECT_EQ(encode_bf16(-0.0), 0x8000);
}

// --- encoding: random values against the CUDA toolkit --------------------------------

// Random doubles of both signs around the range of the target type, plus exact ties
// (a representable value plus half its quantum), which random mantissas almost never hit.
std::vector<double> random_doubles(int min_exp, int max_exp, const std::vector<double>& grid,
                                   std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> exp(min_exp, max_exp);
  std::uniform_int_distribution<std::size_t> pick(0, grid.size() - 2);
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    double v;
    if (i % 4 == 0) {  // midpoint of two neighbouring grid values: an exact tie
      const std::size_t j = pick(rng);
      v = 0.5 * (grid[j] + grid[j + 1]);
    } else {
      v = std::ldexp(mant(rng), exp(rng));
    }
    out.push_back((rng() & 1) ? -v : v);
  }
  return out;
}

// Sorted non-negative finite values of an 8-bit format.
std::vector<double> fp8_grid(double (*decode)(std::uint8_t)) {
  std::vector<double> g;
  for (int c = 0; c < 0x80; ++c) {
    const double v = decode(static_cast<std::uint8_t>(c));
    if (std::isfinite(v)) g.push_back(v);
  }
  return g;
}

TEST(ElementsEncode, RandomFp8MatchesCuda) {
  struct Case {
    __nv_fp8_interpretation_t cuda_type;
    std::uint8_t (*encode)(double, Overflow);
    double (*decode)(std::uint8_t);
    int min_exp, max_exp;
  };
  for (const Case& t : {Case{__NV_E4M3, encode_e4m3, decode_e4m3, -14, 10},
                        Case{__NV_E5M2, encode_e5m2, decode_e5m2, -20, 17}}) {
    const auto grid = fp8_grid(t.decode);
    for (double v : random_doubles(t.min_exp, t.max_exp, grid, 42, 500000)) {
      const auto sat = static_cast<std::uint8_t>(__nv_cvt_double_to_fp8(v, __NV_SATFINITE, t.cuda_type));
      const auto ieee = static_cast<std::uint8_t>(__nv_cvt_double_to_fp8(v, __NV_NOSAT, t.cuda_type));
      ASSERT_EQ(t.encode(v, Overflow::Saturate), sat) << std::hexfloat << v;
      ASSERT_EQ(t.encode(v, Overflow::Ieee), ieee) << std::hexfloat << v;
    }
  }
}

TEST(ElementsEncode, RandomBf16AndFp16MatchCuda) {
  std::vector<double> bf16_grid, fp16_grid;
  for (std::uint32_t c = 0; c < 0x7F80; ++c) bf16_grid.push_back(decode_bf16(static_cast<std::uint16_t>(c)));
  for (std::uint32_t c = 0; c < 0x7C00; ++c) fp16_grid.push_back(decode_fp16(static_cast<std::uint16_t>(c)));
  for (double v : random_doubles(-136, 128, bf16_grid, 7, 500000)) {
    ASSERT_EQ(encode_bf16(v), cuda_bf16_bits(v)) << std::hexfloat << v;
  }
  for (double v : random_doubles(-26, 16, fp16_grid, 8, 500000)) {
    ASSERT_EQ(encode_fp16(v), cuda_fp16_bits(v)) << std::hexfloat << v;
  }
  // NaN encodes to a NaN in both (the payloads differ and do not matter).
  EXPECT_TRUE(is_nan_code16(encode_bf16(kNaN), 7));
  EXPECT_TRUE(is_nan_code16(cuda_bf16_bits(kNaN), 7));
  EXPECT_TRUE(is_nan_code16(encode_fp16(kNaN), 10));
  EXPECT_TRUE(is_nan_code16(cuda_fp16_bits(kNaN), 10));
}

}  // namespace
}  // namespace mxgemm
