// Which sm_90 kernel takes a small-M GEMM (skinny_gemm_preferred): the choice measured on the
// H200 (skinny_gemm_sm90.hpp says where), on the layer shapes it was measured on and on both
// sides of each weight-size limit.
#include <gtest/gtest.h>

#include <cstdint>

#include "cuda/sm90/skinny_gemm_sm90.hpp"

namespace mxgemm::sm90 {
namespace {

struct Choice {
  std::int64_t m, n, k;
  bool weight_only, skinny;
};

TEST(SkinnyCrossover, PicksTheKernelMeasuredFaster) {
  constexpr int kSms = 132;  // the H200's
  const Choice choices[] = {
      // MXFP8 up to 8 rows: the skinny kernel up to 128 MB of weight.
      {1, 1024, 8192, false, true},
      {8, 4096, 8192, false, true},
      {8, 14336, 8192, false, true},
      {1, 28672, 8192, false, false},
      {8, 8192, 28672, false, false},
      // MXFP8, 9..16 rows: up to 32 MB.
      {16, 4096, 4096, false, true},
      {12, 4096, 8192, false, true},
      {12, 14336, 4096, false, false},
      {16, 8192, 8192, false, false},
      // Weights whose K the streaming kernel splits among its warpgroups (8192 rows on 132 SMs):
      // MXFP8 from K = 8192, BF16 from 2048.
      {1, 8192, 8192, false, false},
      {8, 8192, 8192, false, false},
      {8, 8192, 4096, false, true},
      {12, 8192, 4096, false, true},
      {1, 8192, 2048, true, false},
      {8, 8192, 4096, true, false},
      {8, 8192, 1024, true, true},
      {9, 28672, 8192, false, false},
      // BF16 activations (weight-only) up to 8 rows: up to 32 MB.
      {1, 4096, 8192, true, true},
      {8, 1024, 8192, true, true},
      {1, 14336, 4096, true, false},
      {8, 8192, 8192, true, false},
      // BF16, 9..16 rows: up to 4 MB.
      {9, 1024, 4096, true, true},
      {16, 1024, 4096, true, true},
      {9, 1024, 8192, true, false},
      {16, 2048, 4096, true, false},
      {12, 4096, 4096, true, false},
      {16, 4096, 8192, true, false},
      // Beyond the skinny kernel's 16 rows.
      {17, 1024, 8192, false, false},
  };
  for (const Choice& c : choices)
    EXPECT_EQ(skinny_gemm_preferred(c.m, c.n, c.k, c.weight_only, kSms), c.skinny)
        << c.m << " x " << c.n << " x " << c.k << (c.weight_only ? ", weight-only" : ", MXFP8");
  // Each limit is inclusive: the last weight on the skinny kernel's side, one row more beyond.
  EXPECT_TRUE(skinny_gemm_preferred(8, kSkinnyMaxWeightElemsFewRows / 8192, 8192, false, kSms));
  EXPECT_FALSE(skinny_gemm_preferred(8, kSkinnyMaxWeightElemsFewRows / 8192 + 16, 8192, false, kSms));
  EXPECT_TRUE(skinny_gemm_preferred(16, kSkinnyMaxWeightElems / 8192, 8192, false, kSms));
  EXPECT_FALSE(skinny_gemm_preferred(16, kSkinnyMaxWeightElems / 8192 + 16, 8192, false, kSms));
  EXPECT_TRUE(skinny_gemm_preferred(8, kSkinnyMaxWeightElems / 8192, 8192, true, kSms));
  EXPECT_FALSE(skinny_gemm_preferred(8, kSkinnyMaxWeightElems / 8192 + 16, 8192, true, kSms));
  // Where the streaming kernel would split K in clusters (the caller asks the device), weight-only
  // 1..8 rows only up to kSkinnyMaxWeightElemsWeightOnlyClusters.
  EXPECT_TRUE(skinny_gemm_preferred(8, 4096, 4096, true, kSms, true));
  EXPECT_FALSE(skinny_gemm_preferred(8, 4096, 4112, true, kSms, true));
  EXPECT_FALSE(skinny_gemm_preferred(1, 3072, 8192, true, kSms, true));
  EXPECT_TRUE(skinny_gemm_preferred(1, 3072, 8192, true, kSms, false));
  EXPECT_TRUE(skinny_gemm_preferred(16, kSkinnyMaxWeightElemsWeightOnlyRows16 / 4096, 4096, true, kSms, true));
  EXPECT_TRUE(skinny_gemm_preferred(16, kSkinnyMaxWeightElemsWeightOnlyRows16 / 4096, 4096, true, kSms));
  EXPECT_FALSE(skinny_gemm_preferred(16, kSkinnyMaxWeightElemsWeightOnlyRows16 / 4096 + 16, 4096, true, kSms));
}

}  // namespace
}  // namespace mxgemm::sm90
