// The streaming kernel's fp16 values form of an E4M3 MXFP8 activation (stream_gemm_kernel.cuh's
// kF16X with kPermutedX; E4M3 x E4M3 from 17 rows on sm_90). The weight enters as code x
// 2^(s - 127 + kF16WeightShift), exact inside the fp16 window (scale bytes 103..123); each
// activation row as code x 2^(s - top + 7), top its largest scale byte (activation_prepass.cu),
// exact for blocks up to 22 bytes below it; the store multiplies each row's sums by the power
// of two that undoes both. Every product is the exact one times a power of two that is the
// same for all the terms of an output, and the sums are fp32 as in the bf16 values form, so
// where every fp16 operand is a normal number the two forms give the same bits. Rows with a
// nonzero block further below their top, and weight blocks outside the window, take the exact
// path. fp16 subnormals (small codes of activation blocks 13..22 below their top, of weight
// blocks at scale bytes 103..111) are exact too, but the tensor core aligns a k16 group whose
// largest product has such an operand more coarsely (docs/streaming-kernel.md, Session 28):
// there the forms' bits may differ, within the tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <random>
#include <string>

#include "gpu/gemm_test_utils.hpp"

namespace mxgemm::testing {
namespace {

constexpr detail::Sm90Kernel kStreaming = detail::Sm90Kernel::Streaming;

TEST(GpuStreamFp16Form, EveryMFrom1To80) {
  MXGEMM_REQUIRE_GPU();
  expect_every_m_matches_reference(80, {{136, 272}, {520, 1008}, {300, 4112}}, kStreaming, fp16_form_scales());
}

// Where its operands are fp16 normals (fp16_normal_scales), the fp16 form gives the bf16 form's
// bits (detail::StreamMxValues::Bf16, same call) on every tile width and schedule: 32 rows (stream-K, K split among the warpgroups, and among clusters of CTAs too), 64, 128, 256
// (FP32 out promotes every 2048 K into global memory), several waves with paired halves, the
// split reduction; FP32 and BF16 out, alpha, tails in M, N and K (K % 32 == 16). And against the
// reference, with no element unwritten or written outside D.
TEST(GpuStreamFp16Form, GivesTheBf16FormsBits) {
  MXGEMM_REQUIRE_GPU();
  if (!on_hopper()) GTEST_SKIP() << "the fp16 values form is the sm_90 streaming kernel's";
  std::mt19937 rng = fresh_rng();
  using Split = detail::StreamSplitK;
  struct Case { std::int64_t m, n, k; Split split_k; };
  const Case cases[] = {{17, 520, 1008, Split::Auto},  {30, 520, 4112, Split::Always},   {30, 1000, 4112, Split::Clusters},
                        {33, 300, 4112, Split::Auto},  {100, 520, 2080, Split::Auto},    {300, 1100, 4096, Split::Auto},
                        {2100, 2100, 1040, Split::Auto}, {200, 260, 4096, Split::Auto}, {70, 8200, 1040, Split::Auto}};
  int variant = 0;
  for (const Case& c : cases) {
    const detail::ScopedStreamSplitK split(c.split_k);
    MxOptions o = fp16_normal_scales();
    o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const HostMxOperand a = random_mx_operand(c.m, c.k, rng, o);
    const HostMxOperand b = random_mx_operand(c.n, c.k, rng, o);
    for (const DType out : {DType::FP32, DType::BF16}) {
      const float alpha = variant++ % 3 == 2 ? -0.625f : 1.0f;
      const std::string what = shape_name(c.m, c.n, c.k) +
                               (c.split_k == Split::Always ? " split K" : c.split_k == Split::Clusters ? " split K in clusters" : "") +
                               " out=" + dtype_name(out);
      const GpuResult f16 = run_gpu(a, b, out, alpha, 1, kStreaming);
      expect_matches_reference(a, b, f16, alpha, what);
      const detail::ScopedStreamMxValues bf16(detail::StreamMxValues::Bf16);
      EXPECT_EQ(f16.out.bytes, run_gpu(a, b, out, alpha, 1, kStreaming).out.bytes) << what << ": the bf16 form differs";
    }
  }
}

// Activation rows whose blocks spread over more than the fp16 form holds, on every tile width
// (20, 40, 100, 300 rows), both layouts. Row 3: its top block (scale 127) of zero codes, and block
// 5, of E4M3's least subnormal codes (+-2^-9), at 104, 23 below: in fp16 they would be 2^-25,
// which rounds to zero, so the row is marked and its tiles take the exact path (row 3 the
// reference's; so is the last row, marked the same way: at 300 rows in the second activation tile;
// the other rows of tiles without a mark stay on the fast path, whose FP32 sums meet the usual
// tolerance, not the exact path's bits). Row 4: the same at 105, 22 below, with codes as a
// quantizer leaves them (448, 2^-9, a normal one): fp16's least subnormal 2^-24 for 2^-9, on the
// fast path. Row 9: row 3's block at 105, codes of 2^-9 only, which no quantizer gives (a block's
// largest code is 256 or more): every product of its k16 groups has an fp16 subnormal operand,
// which the tensor core aligns more coarsely (docs/streaming-kernel.md, Session 28); its error
// against the tolerance is printed as the margin (0.28-0.59 in session 28; it does not shrink
// with K as the tolerance does). Everything within the tolerance. Row 6: a block of zero codes at
// scale 250, outside the window (no mark, no Inf x 0). Row 7: a NaN scale, row 8: a NaN code.
TEST(GpuStreamFp16Form, RowsBeyondItsSpanTakeTheExactPath) {
  MXGEMM_REQUIRE_GPU();
  if (!on_hopper()) GTEST_SKIP() << "the fp16 values form is the sm_90 streaming kernel's";
  std::mt19937 rng = fresh_rng();
  const std::int64_t n = 140, k = 1040;  // (33 blocks, the last one short)
  int variant = 0;
  for (const std::int64_t m : {20, 40, 100, 300}) {
    MxOptions o = fp16_form_scales();
    o.layout = variant++ % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const HostMxOperand b = random_mx_operand(n, k, rng, o);
    HostMxOperand a = random_mx_operand(m, k, rng, o);
    // quantized: block 5's codes cycle through 448, 2^-9, -2^-9 and 0.75; else +-2^-9 only.
    auto spread_row = [&](HostMxOperand& op, std::int64_t r, int low_scale, bool quantized) {
      const std::uint8_t cycle[4] = {0x7E, 0x01, 0x81, 0x30};
      for (std::int64_t c = 0; c < k; ++c)
        op.set_code(r, c, c / 32 != 5 ? 0x00 : quantized ? cycle[c % 4] : (c % 2 == 0 ? 0x01 : 0x81));
      for (std::int64_t blk = 0; blk < (k + 31) / 32; ++blk) op.set_scale(r, blk, 120);
      op.set_scale(r, 0, 127);
      op.set_scale(r, 5, static_cast<std::uint8_t>(low_scale));
    };
    spread_row(a, 4, 127 - 22, true);
    spread_row(a, 9, 127 - 22, false);
    for (std::int64_t c = 9 * 32; c < 10 * 32; ++c) a.set_code(6, c, 0);
    a.set_scale(6, 9, 250);
    a.set_scale(7, 11, kScaleNaN);
    a.set_code(8, 700, nan_code(a.dtype));
    const std::string what = std::to_string(m) + " rows, " + layout_name(o.layout);
    const GpuResult fast = run_gpu(a, b, DType::FP32, 1.0f, 0, kStreaming);
    expect_matches_reference(a, b, fast, 1.0f, what + ", blocks 22 below the top");
    for (std::int64_t j = 0; j < n; ++j) {
      ASSERT_TRUE(std::isnan(fast.out.at(7, j)) && std::isnan(fast.out.at(8, j))) << what << ": column " << j;
      EXPECT_FALSE(std::isnan(fast.out.at(6, j))) << what << ": row 6, column " << j;
    }
    {  // row 9's error against its tolerance (expect_close's), printed as the margin
      const HostOutput exact = run_reference(a, b, DType::FP32, 1.0f);
      const HostOutput abs_sum = run_reference(absolute(a), absolute(b), DType::FP32, 1.0f);
      double worst = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const double tol = ulp_of(DType::FP32, exact.at(9, j)) + k * std::ldexp(1.0, -24) * abs_sum.at(9, j);
        worst = std::max(worst, std::fabs(fast.out.at(9, j) - exact.at(9, j)) / tol);
      }
      std::printf("[ margin   ] %s, row 9 (codes of 2^-9 only, 22 below the top): largest error %.3g of the tolerance\n",
                  what.c_str(), worst);
    }
    std::int64_t nonzero = 0;
    for (std::int64_t j = 0; j < n; ++j) nonzero += fast.out.at(9, j) != 0.0f;
    EXPECT_GT(nonzero, n / 2) << what << ": row 9's subnormal activations were flushed";
    // Row 3 and the last row (in the last activation tile: 300 rows are two tiles) marked.
    spread_row(a, 3, 127 - 23, false);
    spread_row(a, m - 1, 127 - 23, false);
    const GpuResult marked = run_gpu(a, b, DType::FP32, 1.0f, 0, kStreaming);
    EXPECT_TRUE(marked.guards_intact && marked.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(marked.unwritten, 0) << what << ": outputs left unwritten";
    const HostOutput ref = run_reference(a, b, DType::FP32, 1.0f);
    expect_matches_reference(a, b, marked, 1.0f, what + ", 23 below the top");
    for (const std::int64_t row : {std::int64_t{3}, m - 1}) {
      std::int64_t differ = 0;
      nonzero = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        differ += !(std::fabs(marked.out.at(row, j) - ref.at(row, j)) <= 1e-5 * std::fabs(ref.at(row, j)));
        nonzero += marked.out.at(row, j) != 0.0f;
      }
      EXPECT_EQ(differ, 0) << what << ": row " << row << ", 23 below the top, is not the exact path's";
      EXPECT_GT(nonzero, n / 2) << what << ": row " << row << "'s products were lost";
    }
  }
}

// Weight blocks outside the fp16 window (above: 124..130, below: 90..102, anywhere: 0..254) send
// their tiles to the exact path, whole tiles and tiles split along K: every FP32 output is the
// reference's. A weight block of zero codes with a NaN scale gives its column NaN (the fp16
// lanes make it finite: the exact path gives the NaN).
TEST(GpuStreamFp16Form, WeightScalesOutsideItsWindowTakeTheExactPath) {
  MXGEMM_REQUIRE_GPU();
  if (!on_hopper()) GTEST_SKIP() << "the fp16 values form is the sm_90 streaming kernel's";
  std::mt19937 rng = fresh_rng();
  expect_weight_scales_take_exact_path({24, 130}, {{124, 130, "above"}, {90, 102, "below"}, {0, 254, "any"}},
                                       fp16_form_scales(), kStreaming, rng);
  const HostMxOperand a = random_mx_operand(50, 1040, rng, fp16_form_scales());
  HostMxOperand b = random_mx_operand(140, 1040, rng, fp16_form_scales());
  for (std::int64_t c = 96; c < 128; ++c) b.set_code(7, c, 0);
  b.set_scale(7, 3, kScaleNaN);
  const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f, 0, kStreaming);
  for (std::int64_t i = 0; i < 50; ++i)
    for (std::int64_t j = 0; j < 140; ++j)
      ASSERT_EQ(std::isnan(g.out.at(i, j)), j == 7) << "(" << i << "," << j << ")";
}

}  // namespace
}  // namespace mxgemm::testing
