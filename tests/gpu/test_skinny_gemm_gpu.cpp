// The skinny sm_90 kernel (up to 16 activation rows, issue #4), forced with
// detail::Sm90Kernel::Skinny: every M from 1 to 16 against the exact reference, every fp8
// type pair with strides, linear scales and alpha, NaN propagation, extreme scales inside the
// exact range, and tiles split along K summed deterministically. The tolerance is
// gemm_test_utils.hpp's. (mxfp8_scaled_mm picks this kernel by itself for these M.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "gpu/gemm_test_utils.hpp"

namespace mxgemm::testing {
namespace {

constexpr detail::Sm90Kernel kSkinny = detail::Sm90Kernel::Skinny;

TEST(GpuSkinnyGemm, EveryMFrom1To16) {
  MXGEMM_REQUIRE_GPU();
  // (N, K): a K of one short block; N and K tails (K % 32 == 16) in one and several tiles;
  // a long K cut into several ranges per tile; N = 8192 (64 tiles).
  expect_every_m_matches_reference(16, {{16, 16}, {136, 272}, {520, 1008}, {300, 4112}, {1040, 8192}, {8192, 1024}},
                                   kSkinny);
}

TEST(GpuSkinnyGemm, ElementTypesStridesAndAlpha) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const DType types[] = {DType::E4M3, DType::E5M2};
  for (DType ta : types)
    for (DType tb : types)
      for (std::int64_t m : {3, 13}) {
        MxOptions oa, ob;
        oa.dtype = ta;
        ob.dtype = tb;
        oa.scale_lo = ob.scale_lo = 110;  // E5M2 elements reach 57344: smaller scales keep FP16 finite
        oa.scale_hi = ob.scale_hi = 118;
        oa.data_stride_pad = 16;
        ob.data_stride_pad = 48;
        oa.layout = ScaleLayout::Linear;
        oa.scale_stride_pad = 3;
        ob.layout = m == 3 ? ScaleLayout::Linear : ScaleLayout::Swizzled128x4;
        ob.scale_stride_pad = 5;
        const HostMxOperand a = random_mx_operand(m, 2064, rng, oa);
        const HostMxOperand b = random_mx_operand(520, 2064, rng, ob);
        const float alpha = -0.375f;
        for (DType out : {DType::FP32, DType::BF16, DType::FP16})
          expect_matches_reference(a, b, run_gpu(a, b, out, alpha, /*d_pad=*/3, kSkinny), alpha,
                                   shape_name(m, 520, 2064) + " " + dtype_name(ta) + " x " + dtype_name(tb) +
                                       " out=" + dtype_name(out));
      }
}

TEST(GpuSkinnyGemm, NanScalesAndElementsPropagate) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const std::int64_t m = 11, n = 300, k = 4112;
  HostMxOperand a = random_mx_operand(m, k, rng);
  HostMxOperand b = random_mx_operand(n, k, rng);
  a.set_scale(5, 2, kScaleNaN);           // row 5 of D is NaN
  b.set_code(7, 131, nan_code(b.dtype));  // column 7 of D is NaN
  b.set_scale(290, 128, kScaleNaN);       // column 290 of D is NaN (scale of the short last block)
  const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f, 0, kSkinny);
  if (g.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
  std::int64_t nans = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const bool expect_nan = i == 5 || j == 7 || j == 290;
      EXPECT_EQ(std::isnan(g.out.at(i, j)), expect_nan) << "(" << i << "," << j << ")";
      nans += std::isnan(g.out.at(i, j));
    }
  EXPECT_EQ(nans, n + 2 * m - 2);
  expect_matches_reference(a, b, g, 1.0f, "NaN inputs");
}

// As GpuGemm.ExtremeScalesInsideTheExactRangeBehaveAsTheReference, for this kernel.
TEST(GpuSkinnyGemm, ExtremeScalesInsideTheExactRangeBehaveAsTheReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  expect_exact_range_scales_match(9, kSkinny, "skinny", rng);
}

// Few weight tiles and a long K: every tile is cut into many K ranges and summed from their
// partials by the last CTA. The sum must match the reference and be bitwise the same run
// to run.
TEST(GpuSkinnyGemm, SplitTilesSumDeterministically) {
  MXGEMM_REQUIRE_GPU();
  expect_split_tiles_deterministic({{1, 130, 16384}, {5, 1040, 8192}, {16, 1024, 28672}}, kSkinny);
}

}  // namespace
}  // namespace mxgemm::testing
