// The work split of the skinny kernel: the CTAs' ranges of (tile, group) units are contiguous,
// of equal length (+-1) and cover every unit once; the CTA lookup agrees with the ranges; the
// partial slots a tile's CTAs use are distinct; no range touches more tiles than
// max_tiles_per_cta(); the grid fits the machine.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "cuda/sm90/skinny_schedule.hpp"

namespace mxgemm::sm90 {
namespace {

void check(std::int64_t n, std::int64_t kblocks, int sms, int per_sm) {
  SCOPED_TRACE(testing::Message() << "N " << n << ", " << kblocks << " blocks, " << sms << " SMs x " << per_sm
                                  << " warps");
  const SkinnySchedule s = SkinnySchedule::make(n, kblocks, sms, per_sm);
  EXPECT_EQ(s.tiles, (n + kSkinnyBlockN - 1) / kSkinnyBlockN);
  EXPECT_EQ(s.groups, (kblocks + kSkinnyGroupBlocks - 1) / kSkinnyGroupBlocks);
  EXPECT_EQ(s.units, s.tiles * s.groups);
  ASSERT_GE(s.ctas, 1);
  EXPECT_LE(s.ctas, std::max<std::int64_t>(1, std::int64_t{sms} * per_sm));
  EXPECT_LE(s.ctas, std::max(1, s.units));
  EXPECT_EQ(s.begin(0), 0);
  EXPECT_EQ(s.begin(s.ctas), s.units);
  for (int c = 0; c < s.ctas; ++c) {
    const int len = s.begin(c + 1) - s.begin(c);
    EXPECT_GE(len, s.units / s.ctas);
    EXPECT_LE(len, s.units / s.ctas + 1);
    EXPECT_GE(len, 1);
    for (int u = s.begin(c); u < s.begin(c + 1); ++u) ASSERT_EQ(s.cta_of_unit(u), c) << "unit " << u;
    // The tiles the range touches: the size of each warp's exact-path list.
    const int tiles_touched = (s.begin(c + 1) - 1) / s.groups - s.begin(c) / s.groups + 1;
    EXPECT_LE(tiles_touched, s.max_tiles_per_cta()) << "CTA " << c;
  }
  for (int t = 0; t < s.tiles; ++t) {
    std::set<int> slots;
    for (int c = s.first_cta(t); c <= s.last_cta(t); ++c) {
      EXPECT_TRUE(slots.insert(s.partial_slot(c, t)).second) << "tile " << t << " CTA " << c;
      EXPECT_LT(s.partial_slot(c, t), 2 * s.ctas);
    }
  }
}

TEST(SkinnySchedule, RangesCoverEveryUnitOnce) {
  for (std::int64_t n : {1, 16, 17, 130, 1024, 8192})
    for (std::int64_t kblocks : {1, 3, 4, 5, 129, 256})
      for (int sms : {1, 8, 132})
        for (int per_sm : {1, 2}) check(n, kblocks, sms, per_sm);
}

TEST(SkinnySchedule, FillsTheMachineOnDecodeShapes) {
  // N = K = 8192, 132 SMs x 2 CTAs: every CTA streams, each the same number of units.
  const SkinnySchedule a = SkinnySchedule::make(8192, 256, 132, 2);
  EXPECT_EQ(a.ctas, 132 * 2);
  // Short work spreads one CTA per SM with at least kSkinnySpreadUnits units each:
  // 1 x 1024 x 8192 (8 tiles x 64 groups) on 128 SMs.
  const SkinnySchedule b = SkinnySchedule::make(1024, 256, 132, 2);
  EXPECT_EQ(b.ctas, 128);
  EXPECT_GE(b.units / b.ctas, kSkinnySpreadUnits);
  // Once every SM has one, CTAs keep at least kSkinnyPackUnits: 4096 x 4096 (1024 units)
  // runs 132 CTAs, not 256.
  const SkinnySchedule c = SkinnySchedule::make(4096, 128, 132, 2);
  EXPECT_EQ(c.ctas, 132);
  const SkinnySchedule d = SkinnySchedule::make(4096, 256, 132, 2);  // 2048 units
  EXPECT_EQ(d.ctas, 256);
  EXPECT_GE(d.units / d.ctas, kSkinnyPackUnits);
}

}  // namespace
}  // namespace mxgemm::sm90
