// The stream-K split of the weight-streaming kernel: every (tile, stage) unit belongs to
// exactly one CTA, the CTA lookup agrees with the ranges, and the partial slots that a
// tile's CTAs use are distinct (two partial tiles of one CTA never share a slot).
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "cuda/sm90/stream_schedule.hpp"

namespace mxgemm::sm90 {
namespace {

void check(int tiles, int k_stages, int sms) {
  SCOPED_TRACE(testing::Message() << tiles << " tiles x " << k_stages << " stages, " << sms << " SMs");
  const StreamSchedule s = StreamSchedule::make(tiles, k_stages, sms);
  ASSERT_GE(s.ctas, 1);
  ASSERT_LE(s.ctas, sms);
  EXPECT_EQ(s.begin(0), 0);
  EXPECT_EQ(s.begin(s.ctas), s.units);
  for (int c = 0; c < s.ctas; ++c) {
    const std::int64_t len = s.begin(c + 1) - s.begin(c);
    EXPECT_GE(len, s.units / s.ctas);
    EXPECT_LE(len, s.units / s.ctas + 1);
    if (s.ctas > 1) EXPECT_GE(len, kStreamMinStagesPerCta);
    for (std::int64_t u = s.begin(c); u < s.begin(c + 1); ++u) ASSERT_EQ(s.cta_of_unit(u), c) << "unit " << u;
  }
  std::set<int> slots;
  for (int t = 0; t < tiles; ++t) {
    const int lo = s.first_cta(t), hi = s.last_cta(t);
    ASSERT_LE(lo, hi);
    if (lo == hi) continue;  // whole tile in one CTA: no partials
    for (int c = lo; c <= hi; ++c) {
      const int slot = s.partial_slot(c, t);
      EXPECT_TRUE(slot == 2 * c || slot == 2 * c + 1);
      EXPECT_TRUE(slots.insert(slot).second) << "slot " << slot << " used twice (tile " << t << ")";
    }
  }
}

TEST(StreamSchedule, SplitsCoverEveryUnitOnce) {
  for (int sms : {1, 7, 132})
    for (int tiles : {1, 3, 8, 64, 224, 448})
      for (int k_stages : {1, 2, 9, 64, 128, 448}) check(tiles, k_stages, sms);
}

}  // namespace
}  // namespace mxgemm::sm90
