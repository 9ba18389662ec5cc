// The CPU reference quantizer and dequantizer: hand-derived golden blocks, an independent
// model of MX_FORMAT.md on random and exhaustive inputs, and round-trip error bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "mxgemm/elements.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/quantize.hpp"

namespace mxgemm {
namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr auto kFloor = ScaleRounding::Floor;
constexpr auto kRCeil = ScaleRounding::RCeil;

// --- helpers ---------------------------------------------------------------------------

// An R x K input matrix of any input dtype, stored with a row stride.
struct Input {
  Bytes bytes;
  std::int64_t rows = 0, k = 0, stride = 0;
  DType dtype = DType::FP32;
  ConstMatrixView view() const {
    return ConstMatrixView(bytes.data(), rows, k, stride, dtype, Memory::Host);
  }
};

// Encodes each value to `dtype` (exactly for the values the tests use) into a matrix
// whose row stride is k + pad; the pad elements hold NaN, which must never be read.
Input make_input(const std::vector<float>& v, std::int64_t rows, std::int64_t k, DType dtype,
                 std::int64_t pad = 0) {
  Input in{{}, rows, k, k + pad, dtype};
  const int size = dtype_size(dtype);
  in.bytes.resize(static_cast<std::size_t>(rows * in.stride * size));
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < in.stride; ++c) {
      const float f = c < k ? v[static_cast<std::size_t>(r * k + c)] : kNaN;
      std::uint8_t* dst = in.bytes.data() + (r * in.stride + c) * size;
      if (dtype == DType::FP32) {
        std::memcpy(dst, &f, 4);
      } else {
        const std::uint16_t h = dtype == DType::BF16 ? encode_bf16(f) : encode_fp16(f);
        std::memcpy(dst, &h, 2);
      }
    }
  }
  return in;
}

// Quantized output: codes R x K contiguous, scales in the requested layout. Both buffers
// start filled with 0xCC so unwritten bytes show.
struct Quantized {
  Bytes codes;
  Bytes scales;
  std::int64_t rows = 0, k = 0;
  DType elem = DType::E4M3;
  ScaleLayout layout = ScaleLayout::Linear;
  ConstMxOperand operand() const {
    const ScaleShape s = scale_shape(rows, k, layout);
    return ConstMxOperand(contiguous(codes.data(), rows, k, elem, Memory::Host),
                          contiguous(scales.data(), s.rows, s.cols, DType::E8M0, Memory::Host),
                          layout);
  }
  std::uint8_t code(std::int64_t r, std::int64_t c) const {
    return codes[static_cast<std::size_t>(r * k + c)];
  }
};

Quantized quantize(const Input& x, DType elem, ScaleRounding rounding,
                   ScaleLayout layout = ScaleLayout::Linear) {
  Quantized q;
  q.rows = x.rows;
  q.k = x.k;
  q.elem = elem;
  q.layout = layout;
  const ScaleShape s = scale_shape(x.rows, x.k, layout);
  q.codes.assign(static_cast<std::size_t>(x.rows * x.k), 0xCC);
  q.scales.assign(static_cast<std::size_t>(s.rows * s.cols), 0xCC);
  const MxOperand op(contiguous(q.codes.data(), x.rows, x.k, elem, Memory::Host),
                     contiguous(q.scales.data(), s.rows, s.cols, DType::E8M0, Memory::Host), layout);
  quantize_mxfp8_reference(x.view(), op, rounding);
  return q;
}

// One row of fp32 values.
Quantized quantize_row(const std::vector<float>& v, DType elem, ScaleRounding rounding) {
  return quantize(make_input(v, 1, static_cast<std::int64_t>(v.size()), DType::FP32), elem, rounding);
}

// Pads a block to 32 elements with zeros, so the listed values decide amax.
std::vector<float> block(std::vector<float> v) {
  v.resize(32, 0.0f);
  return v;
}

// --- an independent model of MX_FORMAT.md ------------------------------------------------
// Written the direct way from the spec: frexp for floor(log2), the smallest n with
// amax <= max_finite * 2^n for RCEIL, ldexp and the exact codecs of elements.hpp for
// the elements. Produces linear scales.
void model_block(const float* v, std::int64_t n, DType elem, ScaleRounding rounding,
                 std::uint8_t* codes, std::uint8_t* scale) {
  const bool e5 = elem == DType::E5M2;
  const double max_finite = e5 ? 57344.0 : 448.0;
  const int emax = e5 ? 15 : 8;
  const auto sign_of = [](float f) { return static_cast<std::uint8_t>(std::signbit(f) ? 0x80 : 0); };
  double amax = 0.0;
  bool non_finite = false;
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) non_finite = true;
    else amax = std::max(amax, std::fabs(static_cast<double>(v[i])));
  }
  if (non_finite) {
    *scale = 0xFF;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint8_t s = sign_of(v[i]);
      if (std::isnan(v[i])) codes[i] = s | 0x7F;
      else if (std::isinf(v[i])) codes[i] = s | (e5 ? 0x7C : 0x7F);
      else codes[i] = s;
    }
    return;
  }
  int shared_exp = -127;
  if (amax > 0.0) {
    int e;
    std::frexp(amax, &e);  // amax in [2^(e-1), 2^e)
    const int floor_log2 = e - 1;
    if (rounding == ScaleRounding::Floor) {
      shared_exp = floor_log2 - emax;
    } else {
      shared_exp = floor_log2 - emax - 1;  // max_finite * 2^this < 2^floor_log2 <= amax
      while (amax > std::ldexp(max_finite, shared_exp)) ++shared_exp;
    }
    shared_exp = std::min(127, std::max(-127, shared_exp));
  }
  *scale = static_cast<std::uint8_t>(shared_exp + 127);
  for (std::int64_t i = 0; i < n; ++i) {
    const double y = std::ldexp(static_cast<double>(v[i]), -shared_exp);  // exact
    codes[i] = e5 ? encode_e5m2(y, Overflow::Saturate) : encode_e4m3(y, Overflow::Saturate);
  }
}

// Values is R x K contiguous fp32 (the exact values of the input, NaN signs included).
void expect_matches_model(const std::vector<float>& values, const Quantized& q,
                          ScaleRounding rounding) {
  const std::int64_t cols = scale_cols(q.k);
  ASSERT_EQ(q.layout, ScaleLayout::Linear);
  std::uint8_t codes[32];
  for (std::int64_t r = 0; r < q.rows; ++r) {
    for (std::int64_t b = 0; b < cols; ++b) {
      const std::int64_t c0 = b * 32, n = std::min<std::int64_t>(32, q.k - c0);
      std::uint8_t scale;
      model_block(&values[static_cast<std::size_t>(r * q.k + c0)], n, q.elem, rounding, codes, &scale);
      ASSERT_EQ(q.scales[static_cast<std::size_t>(r * cols + b)], scale) << "row " << r << " block " << b;
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(q.code(r, c0 + i), codes[i])
            << "row " << r << " col " << c0 + i << " value " << std::hexfloat
            << values[static_cast<std::size_t>(r * q.k + c0 + i)];
      }
    }
  }
}

// --- golden blocks (E4M3 unless named) -----------------------------------------------------
// Scale byte = shared_exp + 127. E4M3 code = s.eeee.mmm with bias 7.

TEST(QuantizeGolden, AllZeroBlockKeepsSigns) {
  for (auto rounding : {kFloor, kRCeil}) {
    const auto q = quantize_row(block({0.0f, -0.0f, 0.0f, -0.0f}), DType::E4M3, rounding);
    EXPECT_EQ(q.scales[0], 0);
    EXPECT_EQ(q.codes[0], 0x00);
    EXPECT_EQ(q.codes[1], 0x80);
    EXPECT_EQ(q.codes[3], 0x80);
    EXPECT_EQ(q.codes[31], 0x00);
  }
}

TEST(QuantizeGolden, AmaxPowerOfTwo) {
  // amax = 4 = 2^2: FLOOR and RCEIL agree on shared_exp = 2 - 8 = -6 (byte 121).
  for (auto rounding : {kFloor, kRCeil}) {
    const auto q = quantize_row(block({4.0f, 1.0f, 0.5f, -3.0f}), DType::E4M3, rounding);
    EXPECT_EQ(q.scales[0], 121);
    EXPECT_EQ(q.codes[0], 0x78);  // 256 = 2^8
    EXPECT_EQ(q.codes[1], 0x68);  // 64 = 2^6
    EXPECT_EQ(q.codes[2], 0x60);  // 32 = 2^5
    EXPECT_EQ(q.codes[3], 0xF4);  // -192 = -1.5 * 2^7
    EXPECT_EQ(q.codes[4], 0x00);
  }
}

TEST(QuantizeGolden, AmaxJustBelowPowerOfTwo) {
  const float amax = std::nextafter(4.0f, 0.0f);  // (2 - 2^-22) * 2^1
  // FLOOR: shared_exp = 1 - 8 = -7 (byte 120); amax * 2^7 ~ 512 saturates to 448.
  const auto f = quantize_row(block({amax}), DType::E4M3, kFloor);
  EXPECT_EQ(f.scales[0], 120);
  EXPECT_EQ(f.codes[0], 0x7E);
  // RCEIL: m > 1.75, so -7 + 1 = -6 (byte 121); amax * 2^6 = 256 - 2^-16 rounds to 256.
  const auto r = quantize_row(block({amax}), DType::E4M3, kRCeil);
  EXPECT_EQ(r.scales[0], 121);
  EXPECT_EQ(r.codes[0], 0x78);
}

TEST(QuantizeGolden, RCeilBoundaryAtMantissa1p75) {
  // amax = 14 = 1.75 * 2^3 = 448 * 2^-5 exactly: both rules give -5 (byte 122), code 448.
  for (auto rounding : {kFloor, kRCeil}) {
    const auto q = quantize_row(block({14.0f, 1.0f}), DType::E4M3, rounding);
    EXPECT_EQ(q.scales[0], 122);
    EXPECT_EQ(q.codes[0], 0x7E);
    EXPECT_EQ(q.codes[1], 0x60);  // 32 = 2^5
  }
  // Just below: still -5, and 448 - 2^-15 rounds to 448.
  const auto below = quantize_row(block({std::nextafter(14.0f, 0.0f)}), DType::E4M3, kRCeil);
  EXPECT_EQ(below.scales[0], 122);
  EXPECT_EQ(below.codes[0], 0x7E);
  // Just above (14 + 2^-20): FLOOR keeps -5 and 448 + 2^-15 rounds to 448 ...
  const float above = std::nextafter(14.0f, 100.0f);
  const auto f = quantize_row(block({above, 1.0f}), DType::E4M3, kFloor);
  EXPECT_EQ(f.scales[0], 122);
  EXPECT_EQ(f.codes[0], 0x7E);
  // ... RCEIL moves to -4 (byte 123): 224 + 2^-16 rounds to 224 = 1.75 * 2^7.
  const auto r = quantize_row(block({above, 1.0f}), DType::E4M3, kRCeil);
  EXPECT_EQ(r.scales[0], 123);
  EXPECT_EQ(r.codes[0], 0x76);
  EXPECT_EQ(r.codes[1], 0x58);  // 16 = 2^4
}

TEST(QuantizeGolden, Fp32SubnormalBlock) {
  // amax = 1.5 * 2^-127 (an fp32 subnormal): shared_exp = -135 clamps to -127 (byte 0)
  // under both rules; elements are scaled by 2^127.
  const std::vector<float> v = {
      0x1.8p-127f,   // 1.5            -> 0x3C
      0x1p-135f,     // 2^-8 = 2*2^-9  -> subnormal 0x02
      0x1p-137f,     // 2^-10: tie between 0 and 2^-9 -> 0
      0x1.8p-136f,   // 3*2^-10: tie between 2^-9 and 2^-8 -> even 0x02
      0x1p-149f,     // 2^-22 -> 0
      -0x1p-130f,    // -2^-3 -> 0xA0
  };
  for (auto rounding : {kFloor, kRCeil}) {
    const auto q = quantize_row(block(v), DType::E4M3, rounding);
    EXPECT_EQ(q.scales[0], 0);
    EXPECT_EQ(q.codes[0], 0x3C);
    EXPECT_EQ(q.codes[1], 0x02);
    EXPECT_EQ(q.codes[2], 0x00);
    EXPECT_EQ(q.codes[3], 0x02);
    EXPECT_EQ(q.codes[4], 0x00);
    EXPECT_EQ(q.codes[5], 0xA0);
  }
}

TEST(QuantizeGolden, Bf16SubnormalBlock) {
  // bf16 subnormals are multiples of 2^-133; all scale to e4m3 values under 2^127.
  const std::uint16_t raw[32] = {0x0060,   // 96 * 2^-133 = 1.5 * 2^-127 -> 0x3C
                                 0x0001,   // 2^-133 -> 2^-6, the smallest normal 0x08
                                 0x8008,   // -2^-130 -> -2^-3 -> 0xA0
                                 0x0003};  // 3 * 2^-133 -> 1.5 * 2^-5 -> 0x14
  Input in{Bytes(64), 1, 32, 32, DType::BF16};
  std::memcpy(in.bytes.data(), raw, sizeof raw);
  const auto q = quantize(in, DType::E4M3, kFloor);
  EXPECT_EQ(q.scales[0], 0);
  EXPECT_EQ(q.codes[0], 0x3C);
  EXPECT_EQ(q.codes[1], 0x08);
  EXPECT_EQ(q.codes[2], 0xA0);
  EXPECT_EQ(q.codes[3], 0x14);
}

TEST(QuantizeGolden, SaturationUnderFloorNotRCeil) {
  const auto v = block({1.9f, 1.8f, 1.8125f, 1.82f, -1.9f, 1.7f, 1.5f, 1.6f, 0.001f});
  // FLOOR: amax 1.9 -> shared_exp -8 (byte 119): elements times 256, quantum 32 near 448.
  const auto f = quantize_row(v, DType::E4M3, kFloor);
  EXPECT_EQ(f.scales[0], 119);
  EXPECT_EQ(f.codes[0], 0x7E);  // 486.4 > 464: saturates to 448
  EXPECT_EQ(f.codes[1], 0x7E);  // 460.8 rounds to 448
  EXPECT_EQ(f.codes[2], 0x7E);  // 464, the tie between 448 and 480: even, 448
  EXPECT_EQ(f.codes[3], 0x7E);  // 465.9 saturates
  EXPECT_EQ(f.codes[4], 0xFE);  // -486.4 saturates to -448
  EXPECT_EQ(f.codes[5], 0x7E);  // 435.2 rounds to 448
  EXPECT_EQ(f.codes[6], 0x7C);  // 384 = 1.5 * 2^8
  EXPECT_EQ(f.codes[7], 0x7D);  // 409.6 rounds to 416 = 1.625 * 2^8
  EXPECT_EQ(f.codes[8], 0x28);  // 0.256 rounds to 0.25
  // RCEIL: 1.9 > 1.75 -> -7 (byte 120): elements times 128, quantum 16 near 224; no
  // element exceeds 448.
  const auto r = quantize_row(v, DType::E4M3, kRCeil);
  EXPECT_EQ(r.scales[0], 120);
  EXPECT_EQ(r.codes[0], 0x77);  // 243.2 -> 240
  EXPECT_EQ(r.codes[1], 0x76);  // 230.4 -> 224
  EXPECT_EQ(r.codes[2], 0x76);  // 232, tie between 224 (even) and 240 -> 224
  EXPECT_EQ(r.codes[3], 0x77);  // 232.96 -> 240
  EXPECT_EQ(r.codes[4], 0xF7);  // -243.2 -> -240
  EXPECT_EQ(r.codes[5], 0x76);  // 217.6 -> 224
  EXPECT_EQ(r.codes[6], 0x74);  // 192 = 1.5 * 2^7
  EXPECT_EQ(r.codes[7], 0x75);  // 204.8 -> 208 = 1.625 * 2^7
  EXPECT_EQ(r.codes[8], 0x20);  // 0.128 -> 0.125
}

TEST(QuantizeGolden, NanAndInfBlocks) {
  const auto v = block({1.0f, kNaN, -kNaN, -2.0f, kInf, -kInf, 0.5f});
  const auto e4 = quantize_row(v, DType::E4M3, kFloor);
  EXPECT_EQ(e4.scales[0], 0xFF);
  const Bytes e4_expected = {0x00, 0x7F, 0xFF, 0x80, 0x7F, 0xFF, 0x00};  // E4M3 has no Inf
  EXPECT_EQ(Bytes(e4.codes.begin(), e4.codes.begin() + 7), e4_expected);
  const auto e5 = quantize_row(v, DType::E5M2, kRCeil);
  EXPECT_EQ(e5.scales[0], 0xFF);
  const Bytes e5_expected = {0x00, 0x7F, 0xFF, 0x80, 0x7C, 0xFC, 0x00};
  EXPECT_EQ(Bytes(e5.codes.begin(), e5.codes.begin() + 7), e5_expected);
  // An Inf without NaN makes the block NaN too; the neighbouring block is unaffected.
  std::vector<float> two = block({-kInf, 3.0f});
  const auto second = block({4.0f});
  two.insert(two.end(), second.begin(), second.end());
  const auto q = quantize_row(two, DType::E4M3, kFloor);
  EXPECT_EQ(q.scales[0], 0xFF);
  EXPECT_EQ(q.scales[1], 121);
  EXPECT_EQ(q.codes[0], 0xFF);
  EXPECT_EQ(q.codes[1], 0x00);
  EXPECT_EQ(q.codes[32], 0x78);
}

TEST(QuantizeGolden, E5M2) {
  // emax 15. amax 4: shared_exp 2 - 15 = -13 (byte 114) under both rules.
  for (auto rounding : {kFloor, kRCeil}) {
    const auto q = quantize_row(block({4.0f, 1.0f, 0x1p-29f, -0x1.8p-28f}), DType::E5M2, rounding);
    EXPECT_EQ(q.scales[0], 114);
    EXPECT_EQ(q.codes[0], 0x78);  // 2^15
    EXPECT_EQ(q.codes[1], 0x70);  // 2^13
    EXPECT_EQ(q.codes[2], 0x01);  // 2^-16, the smallest subnormal
    EXPECT_EQ(q.codes[3], 0x83);  // -3 * 2^-16
  }
  // amax 1.9: FLOOR -15 (byte 112), 62259 > 61440 saturates to 57344; RCEIL -14
  // (byte 113), 31129.6 rounds (quantum 4096) to 32768.
  const auto f = quantize_row(block({1.9f, 1.0f}), DType::E5M2, kFloor);
  EXPECT_EQ(f.scales[0], 112);
  EXPECT_EQ(f.codes[0], 0x7B);
  EXPECT_EQ(f.codes[1], 0x78);
  const auto r = quantize_row(block({1.9f, 1.0f}), DType::E5M2, kRCeil);
  EXPECT_EQ(r.scales[0], 113);
  EXPECT_EQ(r.codes[0], 0x78);
  EXPECT_EQ(r.codes[1], 0x74);
  // The RCEIL boundary: 57344 = 1.75 * 2^15, so amax 14 gives -12 and just above gives -11.
  const auto at = quantize_row(block({14.0f}), DType::E5M2, kRCeil);
  EXPECT_EQ(at.scales[0], 115);
  EXPECT_EQ(at.codes[0], 0x7B);
  const auto above = quantize_row(block({std::nextafter(14.0f, 100.0f)}), DType::E5M2, kRCeil);
  EXPECT_EQ(above.scales[0], 116);
  EXPECT_EQ(above.codes[0], 0x77);  // 28672 = 1.75 * 2^14
}

TEST(QuantizeGolden, ShortLastBlock) {
  // K = 48: the second block has 16 elements and its own amax.
  std::vector<float> v(48, 0.25f);
  v[3] = 1.0f;    // block 0 amax 1: shared_exp -8 (byte 119)
  v[40] = -8.0f;  // block 1 amax 8: shared_exp -5 (byte 122)
  const auto q = quantize_row(v, DType::E4M3, kFloor);
  ASSERT_EQ(q.scales.size(), 2u);
  EXPECT_EQ(q.scales[0], 119);
  EXPECT_EQ(q.scales[1], 122);
  EXPECT_EQ(q.code(0, 3), 0x78);   // 256
  EXPECT_EQ(q.code(0, 0), 0x68);   // 64
  EXPECT_EQ(q.code(0, 40), 0xF8);  // -256
  EXPECT_EQ(q.code(0, 47), 0x50);  // 8 = 2^3
  // K below one block, and K = 1.
  const auto small = quantize_row({0.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                                   0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, DType::E4M3, kFloor);
  EXPECT_EQ(small.scales[0], 120);  // 3 = 1.5 * 2^1: shared_exp -7
  EXPECT_EQ(small.codes[1], 0x7C);  // 384
  const auto one = quantize_row({-0.75f}, DType::E4M3, kRCeil);
  EXPECT_EQ(one.scales[0], 118);    // 0.75 = 1.5 * 2^-1: shared_exp -9
  EXPECT_EQ(one.codes[0], 0xFC);    // -384
}

// --- whole matrices ----------------------------------------------------------------------

// Random fp32 matrices with a wide dynamic range per block: each block draws a base
// exponent anywhere in fp32's range (subnormals included) and elements spread up to 40
// binades below it; half the blocks use short mantissas so that exact rounding ties are
// common. Rare zeros, NaNs and Infs.
std::vector<float> random_wide(std::int64_t rows, std::int64_t k, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> base(-160, 127), spread(0, 40), special(0, 2000);
  std::vector<float> v(static_cast<std::size_t>(rows * k));
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t b = 0; b < k; b += 32) {
      const int e = base(rng);
      const bool short_mantissa = rng() & 1;
      for (std::int64_t c = b; c < std::min<std::int64_t>(b + 32, k); ++c) {
        const std::uint32_t man = short_mantissa ? (rng() & 0x3F) << 17 : rng() & 0x7FFFFF;
        const double m = 1.0 + std::ldexp(static_cast<double>(man), -23);
        float f = static_cast<float>(std::ldexp(m, std::min(127, e - spread(rng))));
        const int s = special(rng);
        if (s == 0) f = 0.0f;
        if (s == 1) f = kNaN;
        if (s == 2) f = kInf;
        v[static_cast<std::size_t>(r * k + c)] = (rng() & 1) ? -f : f;
      }
    }
  }
  return v;
}

TEST(QuantizeModel, RandomWideRangeFp32) {
  // Large enough to be split across threads; K % 32 == 16 for a short last block.
  const std::int64_t rows = 520, k = 1040;
  const auto v = random_wide(rows, k, 99);
  const Input in = make_input(v, rows, k, DType::FP32);
  for (DType elem : {DType::E4M3, DType::E5M2}) {
    for (auto rounding : {kFloor, kRCeil}) {
      SCOPED_TRACE(testing::Message() << dtype_name(elem) << " " << rounding_name(rounding));
      expect_matches_model(v, quantize(in, elem, rounding), rounding);
    }
  }
}

TEST(QuantizeModel, EveryBf16AndFp16Code) {
  // All 65536 codes of each 16-bit type (NaN and Inf blocks included), 64 per row.
  for (DType dtype : {DType::BF16, DType::FP16}) {
    Input in{Bytes(2 * 65536), 1024, 64, 64, dtype};
    std::vector<float> exact(65536);
    for (std::uint32_t c = 0; c < 65536; ++c) {
      const auto code = static_cast<std::uint16_t>(c);
      std::memcpy(&in.bytes[2 * c], &code, 2);
      // decode returns an unsigned NaN; the sign is the code's.
      const double d = dtype == DType::BF16 ? decode_bf16(code) : decode_fp16(code);
      exact[c] = std::copysign(static_cast<float>(d), (c & 0x8000) ? -1.0f : 1.0f);
    }
    for (DType elem : {DType::E4M3, DType::E5M2}) {
      for (auto rounding : {kFloor, kRCeil}) {
        SCOPED_TRACE(testing::Message() << dtype_name(dtype) << " -> " << dtype_name(elem) << " "
                                        << rounding_name(rounding));
        expect_matches_model(exact, quantize(in, elem, rounding), rounding);
      }
    }
  }
}

TEST(QuantizeMatrix, AllInputDtypesAgree) {
  // Values exact in fp32, bf16 and fp16 (multiples of 2^-6 in [-4, 4): at most 8
  // significant bits), plus a negative NaN whose sign must survive every input type.
  const std::int64_t rows = 4, k = 80;
  std::mt19937 rng(3);
  std::vector<float> v(static_cast<std::size_t>(rows * k));
  for (auto& f : v) f = static_cast<float>(static_cast<int>(rng() % 512) - 256) / 64.0f;
  v[100] = -kNaN;
  const auto ref = quantize(make_input(v, rows, k, DType::FP32), DType::E4M3, kRCeil);
  EXPECT_EQ(ref.code(1, 20), 0xFF);
  for (DType dtype : {DType::BF16, DType::FP16}) {
    const auto q = quantize(make_input(v, rows, k, dtype), DType::E4M3, kRCeil);
    EXPECT_EQ(q.codes, ref.codes) << dtype_name(dtype);
    EXPECT_EQ(q.scales, ref.scales) << dtype_name(dtype);
  }
  expect_matches_model(v, ref, kRCeil);
}

TEST(QuantizeMatrix, StridedInputRowsAndOutputRows) {
  // Input rows padded with NaN (never read: no block may turn NaN); output rows padded
  // with a sentinel that must stay.
  const std::int64_t rows = 5, k = 70, out_stride = 75;
  const auto v = random_wide(rows, k, 17);
  for (DType dtype : {DType::FP32, DType::BF16, DType::FP16}) {
    const auto dense = quantize(make_input(v, rows, k, dtype), DType::E4M3, kFloor);
    const Input strided = make_input(v, rows, k, dtype, /*pad=*/9);
    Bytes codes(static_cast<std::size_t>(rows * out_stride), 0x5A);
    Bytes scales(static_cast<std::size_t>(rows * 3));
    quantize_mxfp8_reference(
        strided.view(),
        MxOperand(MatrixView(codes.data(), rows, k, out_stride, DType::E4M3, Memory::Host),
                  contiguous(scales.data(), rows, 3, DType::E8M0, Memory::Host), ScaleLayout::Linear),
        kFloor);
    EXPECT_EQ(scales, dense.scales) << dtype_name(dtype);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < out_stride; ++c) {
        const std::uint8_t got = codes[static_cast<std::size_t>(r * out_stride + c)];
        ASSERT_EQ(got, c < k ? dense.code(r, c) : 0x5A) << dtype_name(dtype) << " " << r << "," << c;
      }
    }
  }
}

TEST(QuantizeMatrix, SwizzledLayoutMatchesLinearAndZeroesPadding) {
  const std::int64_t rows = 130, k = 80;  // 3 scale columns: padding in rows and columns
  const auto v = random_wide(rows, k, 23);
  const Input in = make_input(v, rows, k, DType::FP32);
  const auto lin = quantize(in, DType::E4M3, kRCeil, ScaleLayout::Linear);
  const auto swz = quantize(in, DType::E4M3, kRCeil, ScaleLayout::Swizzled128x4);
  EXPECT_EQ(swz.codes, lin.codes);
  const ScaleShape padded = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  for (std::int64_t r = 0; r < padded.rows; ++r) {
    for (std::int64_t c = 0; c < padded.cols; ++c) {
      const std::uint8_t got = swz.scales[static_cast<std::size_t>(swizzled_scale_offset(r, c, 3))];
      const std::uint8_t want = (r < rows && c < 3) ? lin.scales[static_cast<std::size_t>(r * 3 + c)] : 0;
      ASSERT_EQ(got, want) << r << "," << c;
    }
  }
}

// --- dequantization ----------------------------------------------------------------------

// Output bits of element (r, c) of an R x K output of 4- or 2-byte words with row stride.
std::uint32_t out_bits(const Bytes& out, DType dtype, std::int64_t stride, std::int64_t r, std::int64_t c) {
  const int size = dtype_size(dtype);
  std::uint32_t b = 0;
  std::memcpy(&b, out.data() + (r * stride + c) * size, static_cast<std::size_t>(size));
  return b;
}

bool is_nan_bits(std::uint32_t b, DType dtype) {
  switch (dtype) {
    case DType::FP32: return (b & 0x7FFFFFFFu) > 0x7F800000u;
    case DType::BF16: return (b & 0x7FFFu) > 0x7F80u;
    default: return (b & 0x7FFFu) > 0x7C00u;
  }
}

TEST(QuantizeDequant, EveryScaleAndCodeIsExact) {
  // Row s holds scale byte s for every block and every element code 0..255 once.
  const std::int64_t rows = 256, k = 256;
  for (DType elem : {DType::E4M3, DType::E5M2}) {
    Bytes codes(static_cast<std::size_t>(rows * k)), scales(static_cast<std::size_t>(rows * 8));
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < k; ++c) codes[static_cast<std::size_t>(r * k + c)] = static_cast<std::uint8_t>(c);
      for (std::int64_t b = 0; b < 8; ++b) scales[static_cast<std::size_t>(r * 8 + b)] = static_cast<std::uint8_t>(r);
    }
    const ConstMxOperand q(contiguous(codes.data(), rows, k, elem, Memory::Host),
                           contiguous(scales.data(), rows, 8, DType::E8M0, Memory::Host),
                           ScaleLayout::Linear);
    for (DType out_type : {DType::FP32, DType::BF16, DType::FP16}) {
      SCOPED_TRACE(testing::Message() << dtype_name(elem) << " -> " << dtype_name(out_type));
      Bytes out(static_cast<std::size_t>(rows * k * dtype_size(out_type)));
      dequantize_mxfp8_reference(q, contiguous(out.data(), rows, k, out_type, Memory::Host));
      for (std::int64_t s = 0; s < rows; ++s) {
        for (std::int64_t e = 0; e < k; ++e) {
          const double d = elem == DType::E4M3 ? decode_e4m3(static_cast<std::uint8_t>(e))
                                               : decode_e5m2(static_cast<std::uint8_t>(e));
          const double exact = std::ldexp(d, static_cast<int>(s) - 127);  // exact in double
          const std::uint32_t got = out_bits(out, out_type, k, s, e);
          if (s == 0xFF || std::isnan(d)) {
            ASSERT_TRUE(is_nan_bits(got, out_type)) << s << "," << e;
            continue;
          }
          std::uint32_t want;
          if (out_type == DType::FP32) {
            const float f = static_cast<float>(exact);
            std::memcpy(&want, &f, 4);
            // The fp32 result is the exact product wherever fp32 can hold it (every
            // element times a scale up to 2^73, and Inf times any scale).
            if (s <= 200) {
              ASSERT_EQ(static_cast<double>(f), exact) << s << "," << e;
            }
          } else {
            want = out_type == DType::BF16 ? encode_bf16(exact) : encode_fp16(exact);
          }
          ASSERT_EQ(got, want) << s << "," << e;
        }
      }
    }
  }
}

TEST(QuantizeDequant, NanScaleAndNanElement) {
  // Two blocks: a NaN scale over finite codes, and a normal scale over a NaN code.
  const std::int64_t k = 64;
  Bytes codes(static_cast<std::size_t>(k), 0x38);  // E4M3 1.0
  codes[40] = 0x7F;                                 // NaN
  const Bytes scales = {0xFF, 127};
  const ConstMxOperand q(contiguous(codes.data(), 1, k, DType::E4M3, Memory::Host),
                         contiguous(scales.data(), 1, 2, DType::E8M0, Memory::Host),
                         ScaleLayout::Linear);
  for (DType out_type : {DType::FP32, DType::BF16, DType::FP16}) {
    Bytes out(static_cast<std::size_t>(k * dtype_size(out_type)));
    dequantize_mxfp8_reference(q, contiguous(out.data(), 1, k, out_type, Memory::Host));
    for (std::int64_t c = 0; c < 32; ++c) EXPECT_TRUE(is_nan_bits(out_bits(out, out_type, k, 0, c), out_type));
    EXPECT_TRUE(is_nan_bits(out_bits(out, out_type, k, 0, 40), out_type));
    const std::uint32_t one = out_type == DType::FP32 ? 0x3F800000u : (out_type == DType::BF16 ? 0x3F80u : 0x3C00u);
    EXPECT_EQ(out_bits(out, out_type, k, 0, 33), one) << dtype_name(out_type);
  }
}

TEST(QuantizeDequant, SwizzledAndStridedOutput) {
  // Dequantizing through the swizzled layout into a strided output gives the same values
  // as through the linear layout, and leaves the output's row gaps alone.
  const std::int64_t rows = 131, k = 100, stride = 104;
  const auto v = random_wide(rows, k, 31);
  const Input in = make_input(v, rows, k, DType::FP32);
  const auto lin = quantize(in, DType::E5M2, kFloor, ScaleLayout::Linear);
  const auto swz = quantize(in, DType::E5M2, kFloor, ScaleLayout::Swizzled128x4);
  Bytes a(static_cast<std::size_t>(rows * k * 2)), b(static_cast<std::size_t>(rows * stride * 2), 0x99);
  dequantize_mxfp8_reference(lin.operand(), contiguous(a.data(), rows, k, DType::BF16, Memory::Host));
  dequantize_mxfp8_reference(swz.operand(), MatrixView(b.data(), rows, k, stride, DType::BF16, Memory::Host));
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < stride; ++c) {
      const std::uint32_t got = out_bits(b, DType::BF16, stride, r, c);
      ASSERT_EQ(got, c < k ? out_bits(a, DType::BF16, k, r, c) : 0x9999u) << r << "," << c;
    }
  }
}

// Round trip on N(0,1) data. For an element v with block exponent se, y = v * 2^-se is
// rounded to nearest even with `man` mantissa bits. Where |y| is at least the smallest
// normal 2^emin, the error is at most half an ulp, 2^(floor(log2|y|) - man - 1), so at
// most 2^-(man+1) relative: 2^-4 for E4M3, 2^-3 for E5M2. Below 2^emin the quantum is
// 2^(emin - man), so the error is at most 2^(emin - man - 1) in y. Under FLOOR an element
// with y above max_finite + half its quantum saturates to max_finite exactly; RCEIL never
// saturates. Dequantization to fp32 is exact, so these bounds apply to out - v.
void check_round_trip_error(DType elem, ScaleRounding rounding) {
  const bool e5 = elem == DType::E5M2;
  const int man = e5 ? 2 : 3, emin = e5 ? -14 : -6;
  const double max_finite = e5 ? 57344.0 : 448.0;
  const double overflow = e5 ? 61440.0 : 464.0;  // max_finite + half its quantum
  const std::int64_t rows = 64, k = 1024 + 16;
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(rows * k));
  for (auto& f : v) f = normal(rng);
  const auto q = quantize(make_input(v, rows, k, DType::FP32), elem, rounding);
  std::vector<float> out(v.size());
  dequantize_mxfp8_reference(q.operand(), contiguous(out.data(), rows, k, DType::FP32, Memory::Host));
  double worst_relative = 0.0;
  int saturated = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < k; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * k + c);
      const int se = q.scales[static_cast<std::size_t>(r * scale_cols(k) + c / 32)] - 127;
      const double y = std::ldexp(static_cast<double>(v[i]), -se);
      const double err = std::fabs(static_cast<double>(out[i]) - v[i]);
      if (std::fabs(y) > overflow) {
        ASSERT_EQ(rounding, kFloor) << "RCEIL must never saturate";
        ASSERT_EQ(std::fabs(std::ldexp(static_cast<double>(out[i]), -se)), max_finite);
        ++saturated;
      } else if (std::fabs(y) >= std::ldexp(1.0, emin)) {
        const double rel = err / std::fabs(v[i]);
        ASSERT_LE(rel, std::ldexp(1.0, -(man + 1))) << v[i] << " -> " << out[i];
        worst_relative = std::max(worst_relative, rel);
      } else {
        ASSERT_LE(err, std::ldexp(1.0, emin - man - 1 + se)) << v[i] << " -> " << out[i];
      }
    }
  }
  // The bound is tight: rounding really happened and came close to half an ulp.
  EXPECT_GT(worst_relative, std::ldexp(1.0, -(man + 2)));
  if (rounding == kFloor) {
    EXPECT_GT(saturated, 0) << "FLOOR should saturate some block maxima";
  }
}

TEST(QuantizeDequant, RoundTripErrorBoundE4M3) {
  check_round_trip_error(DType::E4M3, kFloor);
  check_round_trip_error(DType::E4M3, kRCeil);
}

TEST(QuantizeDequant, RoundTripErrorBoundE5M2) {
  check_round_trip_error(DType::E5M2, kFloor);
  check_round_trip_error(DType::E5M2, kRCeil);
}

}  // namespace
}  // namespace mxgemm
