// The work split of the weight-streaming kernel: every (tile, stage) unit belongs to exactly
// one CTA, the CTA lookup agrees with the stream-K ranges, the partial slots that a tile's
// CTAs use are distinct (two partial tiles of one CTA never share a slot), and with many
// tiles (data-parallel waves, then stream-K) every output tile is covered exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "cuda/sm90/stream_schedule.hpp"

namespace mxgemm::sm90 {
namespace {

void check(int tiles, int k_stages, int sms) {
  SCOPED_TRACE(testing::Message() << tiles << " tiles x " << k_stages << " stages, " << sms << " SMs");
  const StreamSchedule s = StreamSchedule::make(1, tiles, k_stages, sms);
  ASSERT_GE(s.ctas, 1);
  ASSERT_LE(s.ctas, sms);
  EXPECT_EQ(s.begin(0), 0);
  EXPECT_EQ(s.begin(s.ctas), s.units);
  EXPECT_EQ(s.chunks * s.chunk, s.units);
  for (int c = 0; c < s.ctas; ++c) {
    const std::int64_t len = s.begin(c + 1) - s.begin(c);
    if (s.units > 0) EXPECT_GT(len, 0);
    EXPECT_LE(len, s.max_range());
    if (s.chunk == 1) {  // plain stream-K: equal ranges
      EXPECT_GE(len, s.units / s.ctas);
      EXPECT_LE(len, s.units / s.ctas + 1);
    } else {  // whole chunks, evenly dealt: the ranges start on chunk boundaries
      EXPECT_EQ(s.begin(c) % s.k_stages % s.chunk, 0);
    }
    if (s.ctas > 1 && s.units > 0 && s.chunk < s.k_stages)
      EXPECT_GE(len, s.split_reduce ? kSplitMinStagesPerCta : kStreamMinStagesPerCta);
    for (std::int64_t u = s.begin(c); u < s.begin(c + 1); ++u) ASSERT_EQ(s.cta_of_unit(u), c) << "unit " << u;
  }
  std::set<int> slots;
  for (int t = 0; t < s.stream_tiles(); ++t) {  // stream-K tile indices
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

// Walks every CTA's work items as the kernel does: each (tile, stage) exactly once, tiles
// mapped to distinct (m, n) inside the grid, whole tiles only in the data-parallel part, no
// CTA with more items than max_items_per_cta() (the size of its exact-path list).
void check_walk(int tiles_m, int tiles_n, int k_stages, int sms, bool interleave = false, bool last_wave = false) {
  SCOPED_TRACE(testing::Message() << tiles_m << " x " << tiles_n << " tiles x " << k_stages << " stages, " << sms
                                  << " SMs" << (interleave ? ", halves interleaved" : "")
                                  << (last_wave ? ", last wave stream-K where thin" : ""));
  StreamSchedule s = StreamSchedule::make(tiles_m, tiles_n, k_stages, sms, kPhaseMaxImbalance, last_wave);
  if (interleave) s.interleave_halves();
  const int tiles = tiles_m * tiles_n;
  if (tiles >= 2 * sms) {
    // Either every tile whole (last wave at least 90% full), or whole waves and the thin last
    // one in stream-K ranges over every CTA (last_wave), or whole waves and a stream-K tail of
    // one to two waves.
    const int waves = (tiles + sms - 1) / sms;
    const int last = tiles % sms;
    if (tiles * 10 >= waves * sms * 9 && last_wave && last > 0 && last <= kLastWaveStreamKMaxFill * sms &&
        last * k_stages >= kStreamMinStagesPerCta * sms) {
      EXPECT_EQ(s.dp_tiles, tiles - last);
      EXPECT_EQ(s.ctas, sms);
      EXPECT_EQ(s.chunk, 1);
      // No CTA's range is empty: a tile's first_cta..last_cta must all arrive on its counter
      // (session 66's spike left CTAs without a range, and no CTA stored those tiles).
      for (int c = 0; c < s.ctas; ++c) EXPECT_GE(s.begin(c + 1) - s.begin(c), kStreamMinStagesPerCta) << "CTA " << c;
    } else if (tiles * 10 >= waves * sms * 9) {
      EXPECT_EQ(s.dp_tiles, tiles);
    } else {
      EXPECT_EQ(s.dp_tiles % sms, 0);
      EXPECT_GE(s.stream_tiles(), sms);
      EXPECT_LT(s.stream_tiles(), 2 * sms);
    }
  } else {
    EXPECT_EQ(s.dp_tiles, 0);
  }
  std::vector<int> covered(static_cast<std::size_t>(tiles) * k_stages, 0);
  for (int c = 0; c < s.ctas; ++c) {
    int items = 0;  // the kernel lists up to max_items_per_cta() exact-path tiles per CTA
    for_each_work<true>(s, c, s.ctas, [&](const StreamWork& w) {
      ++items;
      ASSERT_GE(w.tile, 0);
      ASSERT_LT(w.tile, tiles);
      ASSERT_LT(w.ks0, w.ks_end);
      if (w.tile < s.dp_tiles) {
        EXPECT_EQ(w.stream_tile, -1);
        EXPECT_TRUE(w.whole(k_stages));
      } else {
        EXPECT_EQ(w.stream_tile, w.tile - s.dp_tiles);
      }
      // Interleaved halves: every other stage of the whole K, from 0 or 1, for the CTA that
      // the tile's first or second half belongs to (the fixup's bookkeeping is by halves).
      ASSERT_TRUE(w.step == 1 || (s.interleaved && w.step == 2)) << "step " << w.step;
      if (w.step == 2) {
        EXPECT_EQ(w.ks_end, k_stages);
        EXPECT_EQ(s.cta_of_unit(static_cast<std::int64_t>(w.stream_tile) * k_stages + w.ks0 * s.chunk), c);
      }
      int stages = 0;
      for (int ks = w.ks0; ks < w.ks_end; ks += w.step, ++stages)
        ++covered[static_cast<std::size_t>(w.tile) * k_stages + ks];
      EXPECT_EQ(stages, w.stages());
    });
    EXPECT_LE(items, s.max_items_per_cta()) << "CTA " << c;
  }
  for (std::size_t i = 0; i < covered.size(); ++i) ASSERT_EQ(covered[i], 1) << "unit " << i;
  std::set<std::pair<int, int>> coords;
  for (int t = 0; t < tiles; ++t) {
    const StreamTile c = s.coord(t);
    ASSERT_GE(c.m, 0);
    ASSERT_LT(c.m, tiles_m);
    ASSERT_GE(c.n, 0);
    ASSERT_LT(c.n, tiles_n);
    EXPECT_TRUE(coords.insert({c.m, c.n}).second) << "tile " << t;
  }
}

TEST(StreamSchedule, WavesThenStreamKCoverEveryTileOnce) {
  for (int sms : {1, 7, 132})
    for (int tiles_m : {1, 2, 17, 64})
      for (int tiles_n : {1, 5, 16, 33, 64})
        for (int k_stages : {1, 3, 17, 128})
          for (bool interleave : {false, true}) check_walk(tiles_m, tiles_n, k_stages, sms, interleave);
}

// The same walk where a thin last wave runs as stream-K (the 256-row tiles at K near 8192):
// 17 x 64 tiles on 132 SMs leave a last wave of 32 tiles, 16 x 64 one of 100 (too full), 64 x 64
// one of 4 (too little work for every CTA).
TEST(StreamSchedule, ThinLastWaveCoversEveryTileOnce) {
  for (int sms : {7, 132})
    for (int tiles_m : {2, 16, 17, 32, 64})
      for (int tiles_n : {5, 33, 64})
        for (int k_stages : {3, 128}) check_walk(tiles_m, tiles_n, k_stages, sms, false, true);
}

// Which last waves run as stream-K: at most 60% full, every CTA at least kStreamMinStagesPerCta
// stages, only where the launcher asks (the 256-row tiles, K = 7168..12288).
TEST(StreamSchedule, ThinLastWaveIsStreamK) {
  // 8192 x 8192^2 in 256 x 128 tiles: 2048 tiles, 15 waves and 68 tiles (52%).
  const StreamSchedule thin = StreamSchedule::make(32, 64, 128, 132, kPhaseMaxImbalance, true);
  EXPECT_EQ(thin.dp_tiles, 15 * 132);
  EXPECT_EQ(thin.units, std::int64_t{68} * 128);
  EXPECT_EQ(thin.ctas, 132);
  EXPECT_EQ(thin.chunk, 1);
  EXPECT_EQ(thin.max_range(), (68 * 128 + 131) / 132);
  // Without the flag, or with a last wave of 116 (88%) or 4 tiles (512 stages on 132 CTAs),
  // every tile whole.
  EXPECT_EQ(StreamSchedule::make(32, 64, 128, 132).dp_tiles, 2048);
  EXPECT_EQ(StreamSchedule::make(8, 64, 128, 132, kPhaseMaxImbalance, true).dp_tiles, 512);
  EXPECT_EQ(StreamSchedule::make(64, 64, 128, 132, kPhaseMaxImbalance, true).dp_tiles, 4096);
  // The launcher's condition.
  EXPECT_TRUE(last_wave_stream_k_preferred(kWideTileRows, 8192));
  EXPECT_TRUE(last_wave_stream_k_preferred(kWideTileRows, kLastWaveStreamKMinK));
  EXPECT_TRUE(last_wave_stream_k_preferred(kWideTileRows, kLastWaveStreamKMaxK));
  EXPECT_FALSE(last_wave_stream_k_preferred(kWideTileRows, 4096));
  EXPECT_FALSE(last_wave_stream_k_preferred(kWideTileRows, 6144));
  EXPECT_FALSE(last_wave_stream_k_preferred(kWideTileRows, 28672));
  EXPECT_FALSE(last_wave_stream_k_preferred(kNarrowWideTileRows, 8192));
  EXPECT_FALSE(last_wave_stream_k_preferred(128, 8192));
}

// The shape of GpuStreamGemm.ThinLastWaveInStreamKMatchesReference (10200 x 1900 x 8176) on 132
// SMs: a thin last wave whose stream-K tiles hold the last activation tile, so that the GPU test
// runs rather than skips. (Its first shape, 9400 x 1000: three waves under 90% full, the usual
// stream-K of the last two; the GPU test skipped, session 67.)
TEST(StreamSchedule, ThinLastWaveOfTheGpuTestsShape) {
  const int k_stages = static_cast<int>(stream_k_stages(8176, kWideTileRows, false));
  const bool preferred = last_wave_stream_k_preferred(kWideTileRows, 8176);
  const StreamSchedule s = StreamSchedule::make(ceil_div(10200, kWideTileRows), ceil_div(1900, 128), k_stages, 132,
                                                kPhaseMaxImbalance, preferred);
  EXPECT_EQ(s.tiles(), 600);
  EXPECT_EQ(s.dp_tiles, 4 * 132);
  EXPECT_EQ(s.ctas, 132);
  for (int t = 0; t < s.dp_tiles; ++t) EXPECT_NE(s.coord(t).m, s.tiles_m - 1) << "tile " << t;
  EXPECT_EQ(StreamSchedule::make(37, 8, k_stages, 132, kPhaseMaxImbalance, preferred).dp_tiles, 132);
}

// Halves of a tile's K (64 tiles on 132 SMs: 128 CTAs) run interleaved: stages 0, 2, ... and
// 1, 3, ...; other schedules are unchanged by interleave_halves().
TEST(StreamSchedule, HalvesInterleaveTheirStages) {
  StreamSchedule s = StreamSchedule::make(1, 64, 128, 132);
  ASSERT_EQ(s.chunk, 64);
  s.interleave_halves();
  EXPECT_TRUE(s.interleaved);
  std::vector<StreamWork> items;
  for_each_work<true>(s, 5, s.ctas, [&](const StreamWork& w) { items.push_back(w); });
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].tile, 2);
  EXPECT_EQ(items[0].ks0, 1);
  EXPECT_EQ(items[0].ks_end, 128);
  EXPECT_EQ(items[0].step, 2);
  EXPECT_EQ(items[0].stages(), 64);
  EXPECT_FALSE(items[0].whole(128));
  StreamSchedule whole = StreamSchedule::make(2, 64, 128, 132);  // 128 tiles: one whole tile a CTA
  whole.interleave_halves();
  EXPECT_FALSE(whole.interleaved);
}

// A last wave at least 90% full is dealt whole (no stream-K); a thinner one keeps the
// stream-K tail, and short work stays all stream-K.
TEST(StreamSchedule, NearlyFullLastWaveIsDealtWhole) {
  const StreamSchedule full = StreamSchedule::make(8, 64, 448, 132);  // 512 tiles: 3.88 waves
  EXPECT_EQ(full.dp_tiles, 512);
  EXPECT_EQ(full.units, 0);
  EXPECT_EQ(full.ctas, 132);
  const StreamSchedule thin = StreamSchedule::make(5, 64, 128, 132);  // 320 tiles: 2.42 waves
  EXPECT_EQ(thin.dp_tiles, 132);
  EXPECT_EQ(thin.units, std::int64_t{188} * 128);
  EXPECT_EQ(thin.ctas, 132);
  const StreamSchedule short_work = StreamSchedule::make(1, 64, 128, 132);
  EXPECT_EQ(short_work.dp_tiles, 0);
  EXPECT_EQ(short_work.ctas, 128);  // two CTAs a tile, half its K each (chunked stream-K)
}

// Few tiles cut among many CTAs are summed by the reduction kernel, and only when no tile is
// dealt whole; a tile's CTAs are then consecutive, so the kernel's reading of partial slots
// first_cta .. last_cta finds every part.
TEST(StreamSchedule, ManyCtasPerTileTakeTheSplitReduction) {
  // 32 x 1024 x 8192 (4 tiles of 256 weight rows, 128 stages): 128 CTAs of 4 stages.
  const StreamSchedule few = StreamSchedule::make(1, 4, 128, 132);
  EXPECT_TRUE(few.split_reduce);
  EXPECT_EQ(few.ctas, 128);
  EXPECT_EQ(few.first_cta(0), 0);
  EXPECT_EQ(few.last_cta(3), 127);
  // 64 x 8192 x 8192 (64 tiles of 128 rows): two CTAs a tile, each half its K (chunked
  // stream-K), the in-kernel fixup.
  const StreamSchedule two_per_tile = StreamSchedule::make(1, 64, 128, 132);
  EXPECT_FALSE(two_per_tile.split_reduce);
  EXPECT_EQ(two_per_tile.chunk, 64);
  EXPECT_EQ(two_per_tile.ctas, 128);
  // Data-parallel waves never split-reduce, nor does one CTA.
  EXPECT_FALSE(StreamSchedule::make(5, 64, 128, 132).split_reduce);
  EXPECT_FALSE(StreamSchedule::make(1, 1, 4, 132).split_reduce);
  // The threshold: 8 tiles of 24 stages make 24 CTAs of 8 stages, 3 a tile (split, then 48
  // CTAs of 4 stages); of 23 stages, 23 CTAs (the in-kernel fixup).
  static_assert(kSplitReduceCtasPerTile == 3 && kStreamMinStagesPerCta == 8 && kSplitMinStagesPerCta == 4,
                "the shapes below are picked for these thresholds");
  const StreamSchedule at = StreamSchedule::make(1, 8, 24, 132);
  EXPECT_TRUE(at.split_reduce);
  EXPECT_EQ(at.ctas, 48);
  const StreamSchedule below = StreamSchedule::make(1, 8, 23, 132);
  EXPECT_FALSE(below.split_reduce);
  EXPECT_EQ(below.ctas, 23);
  EXPECT_EQ(below.chunk, 1);  // chunks would leave most SMs idle: plain stream-K
}

// A split reduction whose tiles divide into equal parts filling 90% of the SMs runs one part a
// CTA, no range crossing into a second tile: 8192 x 28672 (32 tiles of 256 rows, 448 stages) as
// quarters on 128 CTAs, 4096 x 4096 (16 tiles, 64 stages) as eighths. Where the parts would not
// divide the K (448 stages over 5) the ranges stay equal.
TEST(StreamSchedule, SplitReductionTakesWholePartsOfATile) {
  const StreamSchedule quarters = StreamSchedule::make(1, 32, 448, 132);
  EXPECT_TRUE(quarters.split_reduce);
  EXPECT_EQ(quarters.ctas, 128);
  EXPECT_EQ(quarters.chunk, 112);
  for (int c = 0; c < quarters.ctas; ++c) {
    EXPECT_EQ(quarters.begin(c), std::int64_t{112} * c);
    EXPECT_EQ(quarters.first_cta(c / 4), c / 4 * 4);
  }
  const StreamSchedule eighths = StreamSchedule::make(1, 16, 64, 132);
  EXPECT_TRUE(eighths.split_reduce);
  EXPECT_EQ(eighths.ctas, 128);
  EXPECT_EQ(eighths.chunk, 8);
  const StreamSchedule fifths = StreamSchedule::make(1, 24, 448, 132);
  EXPECT_TRUE(fifths.split_reduce);
  EXPECT_EQ(fifths.ctas, 132);
  EXPECT_EQ(fifths.chunk, 1);
}

// The K split among a CTA's warpgroups takes weights whose 64-row tiles fill 90% to 100% of
// the SMs, one a CTA: N = 8192 on 132 SMs (128 tiles), not 4096 (64) or 28672 (448).
TEST(StreamSchedule, SplitKTakesTilesThatFillTheSms) {
  EXPECT_TRUE(split_k_fills(8192, 132));
  EXPECT_TRUE(split_k_fills(7610, 132));   // 119 tiles: 90.2%
  EXPECT_FALSE(split_k_fills(7550, 132));  // 118: 89.4%
  EXPECT_TRUE(split_k_fills(8448, 132));   // 132
  EXPECT_FALSE(split_k_fills(8449, 132));  // 133: a second wave
  EXPECT_FALSE(split_k_fills(4096, 132));
  EXPECT_FALSE(split_k_fills(28672, 132));
  const StreamSchedule s = StreamSchedule::one_tile_per_cta(128, 16);
  EXPECT_EQ(s.ctas, 128);
  EXPECT_EQ(s.dp_tiles, 128);
  EXPECT_FALSE(s.split_reduce);
  int items = 0;
  for (int c = 0; c < s.ctas; ++c)
    for_each_work(s, c, s.ctas, [&](const StreamWork& w) {
      EXPECT_EQ(w.tile, c);
      EXPECT_TRUE(w.whole(16));
      ++items;
    });
  EXPECT_EQ(items, 128);
}

// The split's own walk (walk_work with kOneTilePerCta, which keeps no stream-K state in the
// kernel's registers) gives each CTA the item for_each_work gives it: tile c, whole; and CTAs
// past the tiles none.
TEST(StreamSchedule, SplitKWalkIsTheOneTilePerCtaWalk) {
  const StreamSchedule s = StreamSchedule::one_tile_per_cta(120, 24);
  auto items = [&](int c, auto walk) {
    std::vector<std::vector<int>> got;
    walk(c, [&](const StreamWork& w) { got.push_back({w.tile, w.stream_tile, w.ks0, w.ks_end, w.step}); });
    return got;
  };
  for (int c = 0; c < 132; ++c) {
    const auto split = items(c, [&](int cta, auto f) { walk_work<false, true>(s, cta, s.ctas, f); });
    const auto general = items(c, [&](int cta, auto f) { walk_work<false, false>(s, cta, s.ctas, f); });
    EXPECT_EQ(split, general) << "CTA " << c;
    EXPECT_EQ(split.size(), c < 120 ? 1u : 0u) << "CTA " << c;
  }
}

// Where 64-row tiles are too few for the SMs, each tile's K is split among a cluster of CTAs
// as well (split_k_cluster_ctas): as many as fit the SMs, up to 8, with every tile's cluster
// running at once (the H200's GPCs hold 66 clusters of 2, 39 of 3, 30 of 4, 22 of 5, 17 of 6,
// 15 of 7 or 8), where that fills 70% of them (any fill when forced), and fewer where K is too
// short for every CTA's range to give each warpgroup some K.
TEST(StreamSchedule, SplitKClustersFillTheSms) {
  auto h200 = [](int c) {
    constexpr int kClusters[] = {0, 132, 66, 39, 30, 22, 17, 15, 15};
    return kClusters[c];
  };
  EXPECT_EQ(split_k_cluster_ctas(4096, 4096, 132, h200), 2);  // 64 tiles: 128 CTAs
  EXPECT_EQ(split_k_cluster_ctas(1024, 8192, 132, h200), 6);  // 16: 96 (15 clusters of 7 or 8)
  EXPECT_EQ(split_k_cluster_ctas(2048, 8192, 132, h200), 3);  // 32: 96 (30 clusters of 4)
  EXPECT_EQ(split_k_cluster_ctas(1536, 8192, 132, h200), 4);  // 24: 96 (22 clusters of 5)
  EXPECT_EQ(split_k_cluster_ctas(3072, 8192, 132, h200), 2);  // 48: 96
  EXPECT_EQ(split_k_cluster_ctas(8192, 8192, 132, h200), 1);  // the tiles alone (split_k_fills)
  EXPECT_EQ(split_k_cluster_ctas(512, 8192, 132, h200), 1);   // 8 tiles x 8: 48%
  EXPECT_EQ(split_k_cluster_ctas(512, 8192, 132, h200, true), 8);
  EXPECT_EQ(split_k_cluster_ctas(28672, 8192, 132, h200), 1);
  // Without the GPC bound, as many as the SMs hold.
  auto any = [](int) { return 1 << 20; };
  EXPECT_EQ(split_k_cluster_ctas(1024, 8192, 132, any), 8);
  EXPECT_EQ(split_k_cluster_ctas(2048, 8192, 132, any), 4);
  // K: 4096 is 8 ring stages of 512, one a CTA; 2048 only 4 (16 tiles x 4: 48%).
  EXPECT_EQ(split_k_cluster_ctas(1024, 4096, 132, any), 8);
  EXPECT_EQ(split_k_cluster_ctas(1024, 2048, 132, any), 1);
  EXPECT_EQ(split_k_cluster_ctas(1024, 2048, 132, any, true), 4);
  // 3600 is 8 ring stages, the last of 16 K: as the eighth CTA's whole range it would leave
  // three warpgroups without K, so 7 CTAs (ranges of 1 or 2 stages, the last of 2).
  EXPECT_FALSE(split_k_ranges_fit(3600, 8));
  EXPECT_TRUE(split_k_ranges_fit(3600, 7));
  EXPECT_EQ(split_k_cluster_ctas(136, 3600, 132, h200, true), 7);
  EXPECT_FALSE(split_k_ranges_fit(1024, 3));  // 2 stages for 3 CTAs
}

// The two-warpgroup split (33..64 rows) has ring stages of two 128-K parts (256 K), so twice as
// many ring stages and CTAs a tile at the same K; its clusters run where Auto takes them
// (two_warpgroup_split_preferred: 33..64 rows, K >= 4096, not FP16 activations).
TEST(StreamSchedule, TwoWarpgroupSplitClustersFillTheSms) {
  auto h200 = [](int c) {
    constexpr int kClusters[] = {0, 132, 66, 39, 30, 22, 17, 15, 15};
    return kClusters[c];
  };
  EXPECT_EQ(split_k_parts(16), 4);
  EXPECT_EQ(split_k_parts(32), 4);
  EXPECT_EQ(split_k_parts(64), 2);
  EXPECT_EQ(split_k_ring_stages(4112, 2), 17);
  EXPECT_EQ(split_k_ring_stages(4112), 9);
  EXPECT_EQ(split_k_cluster_ctas(1024, 8192, 132, h200, false, 2), 6);  // 16 tiles: 96 CTAs
  EXPECT_EQ(split_k_cluster_ctas(2048, 8192, 132, h200, false, 2), 3);  // 32: 96
  EXPECT_EQ(split_k_cluster_ctas(3072, 4096, 132, h200, false, 2), 2);  // 48: 96
  EXPECT_EQ(split_k_cluster_ctas(4096, 4096, 132, h200, false, 2), 2);  // 64: 128
  EXPECT_EQ(split_k_cluster_ctas(4608, 4096, 132, h200, false, 2), 1);  // 72: more than half the SMs
  // 1040 is 5 ring stages, the last of 16 K: as a fifth CTA's whole range it would leave the
  // second warpgroup without K, so 4 CTAs.
  EXPECT_FALSE(split_k_ranges_fit(1040, 5, 2));
  EXPECT_TRUE(split_k_ranges_fit(1040, 4, 2));
  EXPECT_EQ(split_k_cluster_ctas(136, 1040, 132, h200, true, 2), 4);
  EXPECT_TRUE(split_k_ranges_fit(4112, 8, 2));
  EXPECT_TRUE(two_warpgroup_split_preferred(64, 4096, false));
  EXPECT_TRUE(two_warpgroup_split_preferred(64, 8192, false));
  EXPECT_TRUE(two_warpgroup_split_preferred(63, 8192, false));
  EXPECT_TRUE(two_warpgroup_split_preferred(33, 4096, false));
  EXPECT_FALSE(two_warpgroup_split_preferred(33, 2048, false));
  EXPECT_FALSE(two_warpgroup_split_preferred(64, 2048, false));
  EXPECT_FALSE(two_warpgroup_split_preferred(64, 8192, true));  // FP16 activations
  EXPECT_FALSE(two_warpgroup_split_preferred(32, 8192, false));  // the 32-row forms
  // One tile a CTA where the tiles fill the SMs: MXFP8 (permuted K order) 33..64 rows, K 4096..8192.
  EXPECT_TRUE(two_warpgroup_fill_preferred(33, 4096, true));
  EXPECT_TRUE(two_warpgroup_fill_preferred(64, 8192, true));
  EXPECT_FALSE(two_warpgroup_fill_preferred(64, 8208, true));   // past kTwoWarpgroupFillMaxK
  EXPECT_FALSE(two_warpgroup_fill_preferred(48, 2048, true));   // below kTwoWarpgroupSplitMinK
  EXPECT_FALSE(two_warpgroup_fill_preferred(32, 8192, true));   // the 32-row forms
  EXPECT_FALSE(two_warpgroup_fill_preferred(65, 8192, true));
  EXPECT_FALSE(two_warpgroup_fill_preferred(48, 8192, false));  // BF16 activations: not measured
  EXPECT_FALSE(two_warpgroup_split_preferred(65, 8192, false));
}

TEST(StreamSchedule, Width192TakesRowsWhereItNeedsNoMoreTilesThan256) {
  using detail::StreamWidth192;
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 128));  // 128-row tiles
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 129));
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 192));
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 193));  // two tiles of 192, one of 256
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 256));
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 257));   // two either way
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 384));
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 385));
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 513));   // three either way
  EXPECT_TRUE(width_192_taken(StreamWidth192::Auto, 576));
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 577));
  EXPECT_FALSE(width_192_taken(StreamWidth192::Auto, 900));  // five against four
  for (std::int64_t m = 577; m <= 70000; ++m) ASSERT_FALSE(width_192_taken(StreamWidth192::Auto, m)) << m;
  EXPECT_FALSE(width_192_taken(StreamWidth192::Never, 160));
  EXPECT_TRUE(width_192_taken(StreamWidth192::Always, 900));  // (to time more tiles of 192 rows)
  EXPECT_FALSE(width_192_taken(StreamWidth192::Always, 128));
}

TEST(StreamSchedule, WorkspaceActivationPadsALastTileOfAtMostHalfItsRows) {
  EXPECT_EQ(workspace_activation_rows(300, 256, true), 512);     // last tile 44 rows
  EXPECT_EQ(workspace_activation_rows(2100, 256, true), 2304);   // 52
  EXPECT_EQ(workspace_activation_rows(384, 256, true), 512);     // 128: half
  EXPECT_EQ(workspace_activation_rows(385, 256, true), 385);     // 129
  EXPECT_EQ(workspace_activation_rows(1000, 256, true), 1000);   // 232
  EXPECT_EQ(workspace_activation_rows(512, 256, true), 512);     // whole tiles
  EXPECT_EQ(workspace_activation_rows(200, 256, true), 200);     // one tile: boxes of M rows
  EXPECT_EQ(workspace_activation_rows(300, 256, false), 300);    // BF16 activations: not measured
  EXPECT_EQ(workspace_activation_rows(257, 192, true), 384);     // 192-row tiles: last tile 65
  EXPECT_EQ(workspace_activation_rows(300, 192, true), 300);     // 108
}

// A cluster's CTAs are consecutive: CTA c runs tile c / k_split over its rank's range, and the
// ranges of a tile cover its ring stages once, in order; every range gives each warpgroup's part
// some K (split_k_ranges_fit).
TEST(StreamSchedule, SplitKClusterRangesCoverEveryStageOnce) {
  for (const std::int64_t k : {1040, 2048, 3600, 4112, 8192, 28672})
    for (int ctas = 2; ctas <= kSplitKMaxClusterCtas; ++ctas) {
      if (!split_k_ranges_fit(k, ctas)) continue;
      const int stages = static_cast<int>(split_k_ring_stages(k));
      const StreamSchedule s = StreamSchedule::one_tile_per_cta(5, stages, ctas);
      EXPECT_EQ(s.ctas, 5 * ctas);
      std::vector<int> next(5, 0);
      for (int c = 0; c < s.ctas; ++c) {
        EXPECT_EQ(s.split_tile(c), c / ctas);
        EXPECT_EQ(s.split_rank(c), c % ctas);
        int items = 0;
        walk_work<false, true, true>(s, c, s.ctas, [&](const StreamWork& w) {
          ++items;
          EXPECT_EQ(w.tile, c / ctas);
          EXPECT_EQ(w.ks0, next[w.tile]) << "K " << k << ", " << ctas << " CTAs, CTA " << c;
          EXPECT_GT(w.ks_end, w.ks0);
          next[w.tile] = w.ks_end;
          // Each of the four 128-K parts of the range has K: a range of two stages or more, or
          // one that reaches its stage's last part.
          const std::int64_t range_k = std::min<std::int64_t>(k, std::int64_t{w.ks_end} * 512) - std::int64_t{w.ks0} * 512;
          EXPECT_GT(range_k, 384) << "K " << k << ", " << ctas << " CTAs, CTA " << c;
        });
        EXPECT_EQ(items, 1);
      }
      for (int t = 0; t < 5; ++t) EXPECT_EQ(next[t], stages) << "K " << k << ", " << ctas << " CTAs";
    }
}

// 33..64 rows' 128-row tiles in clusters (wide_cluster_ctas): the same rule over 128-K stages,
// every range at least 4 of them, 45% of the SMs, at least 3 CTAs a tile (unless forced): on
// the H200 N = 1024 in clusters of 8 (64 CTAs), 2048 of 6, 3072 of 4, 4096 of 3 (96), 4608 of 3
// (108); none in pairs, nor where the tiles alone fill half the SMs.
TEST(StreamSchedule, WideClustersFillTheSms) {
  auto h200 = [](int c) {
    constexpr int kClusters[] = {0, 132, 66, 39, 30, 22, 17, 15, 15};
    return kClusters[c];
  };
  const auto stages = [](std::int64_t k) { return stream_k_stages(k, 64, false); };
  EXPECT_EQ(stages(8192), 64);
  EXPECT_EQ(wide_cluster_ctas(1024, stages(8192), 132, h200), 8);
  EXPECT_EQ(wide_cluster_ctas(1024, stages(4096), 132, h200), 8);  // 32 stages: 4 a CTA
  EXPECT_EQ(wide_cluster_ctas(2048, stages(8192), 132, h200), 6);  // 16 tiles: 17 clusters of 6
  EXPECT_EQ(wide_cluster_ctas(3072, stages(8192), 132, h200), 4);  // 24: 30 of 4
  EXPECT_EQ(wide_cluster_ctas(4096, stages(4096), 132, h200), 3);  // 32: 39 of 3
  EXPECT_EQ(wide_cluster_ctas(4608, stages(4096), 132, h200), 3);
  // Pairs only when forced; 67 tiles and more fill half the SMs alone.
  EXPECT_EQ(wide_cluster_ctas(5120, stages(4096), 132, h200), 1);
  EXPECT_EQ(wide_cluster_ctas(5120, stages(4096), 132, h200, true), 2);
  EXPECT_EQ(wide_cluster_ctas(8192, stages(8192), 132, h200), 1);
  EXPECT_EQ(wide_cluster_ctas(8576, stages(8192), 132, h200, true), 1);
  EXPECT_EQ(wide_cluster_ctas(28672, stages(8192), 132, h200), 1);
  EXPECT_EQ(wide_cluster_ctas(1024, stages(2048), 132, h200), 1);  // 16 stages: 4 a tile, 24%
  EXPECT_EQ(wide_cluster_ctas(1024, stages(2048), 132, h200, true), 4);
  EXPECT_EQ(wide_cluster_ctas(512, stages(8192), 132, h200), 1);   // 4 tiles x 8: 24%
  EXPECT_EQ(wide_cluster_ctas(512, stages(8192), 132, h200, true), 8);
  EXPECT_EQ(wide_cluster_ctas(1000, stages(1040), 132, h200, true), 2);  // 9 stages
  EXPECT_EQ(wide_cluster_ctas(1000, stages(896), 132, h200, true), 1);   // 7: no two ranges of 4
}

// One chain of unpromoted tensor-core accumulation: 8192 K for BF16 out, 2048 for FP32 and
// FP16 (measured, sessions 23 and 24), each a whole number of the 256-row tiles' 64-K stages and of the
// 128-row tiles' 512-K promotion groups. 256-row tiles above 128 rows for BF16 and FP32 out at any
// K (they promote), for FP16 out only up to its chain (beyond it the 128-row tiles round more
// outputs correctly).
TEST(StreamSchedule, WideTilesWithinTheMeasuredChains) {
  EXPECT_EQ(unpromoted_chain_k(DType::BF16), 8192);
  EXPECT_EQ(unpromoted_chain_k(DType::FP32), 2048);
  EXPECT_EQ(unpromoted_chain_k(DType::FP16), 2048);
  for (DType out : {DType::BF16, DType::FP32, DType::FP16}) {
    EXPECT_EQ(unpromoted_chain_k(out) % kStreamSubStageK, 0);
    EXPECT_EQ(unpromoted_chain_k(out) % 512, 0);
    EXPECT_TRUE(wide_tiles_preferred(out, unpromoted_chain_k(out)));
    EXPECT_EQ(wide_tiles_preferred(out, unpromoted_chain_k(out) + 16), out != DType::FP16);
  }
  EXPECT_TRUE(wide_tiles_preferred(DType::BF16, 262144));
  EXPECT_TRUE(wide_tiles_preferred(DType::FP32, 262144));
  EXPECT_FALSE(wide_tiles_preferred(DType::FP16, 28672));
}

// The staggered first promotion: walking an item's sub-stages as the kernel does (a promotion
// at the first sub-stage, then every chain), no chain is longer than the output's, no CTA
// promotes more often than with whole chains, and the CTAs promote at kPromoteStaggerGroups
// different times where the chains leave slack (K = 28672, BF16 out: 448 sub-stages, chains of
// 128: first promotions at 128 / 112 / 96 / 80). Items that fit one chain never promote.
TEST(StreamSchedule, StaggeredPromotionKeepsTheChainsAndTheirCount) {
  auto walk = [](int subs, int chain, int cta, int groups, int& promotions, int& longest) {
    promotions = 0, longest = 0;
    int at = first_promotion_sub_stage(subs, chain, cta, groups), last = 0;
    for (int i = 0; i < subs; ++i) {
      if (i == at) {
        ++promotions;
        longest = std::max(longest, i - last);
        last = i;
        at += chain;
      }
    }
    longest = std::max(longest, subs - last);
  };
  for (int chain : {32, 128}) {
    for (int subs : {1, 31, 32, 33, 64, 127, 128, 129, 200, 448, 449, 511, 512, 1000}) {
      int base_promotions = 0, base_longest = 0;
      walk(subs, chain, 0, 1, base_promotions, base_longest);
      EXPECT_EQ(base_promotions, (subs - 1) / chain) << subs;
      EXPECT_LE(base_longest, chain) << subs;
      std::set<int> firsts;
      for (int cta = 0; cta < 9; ++cta) {
        int promotions = 0, longest = 0;
        walk(subs, chain, cta, kPromoteStaggerGroups, promotions, longest);
        EXPECT_EQ(promotions, base_promotions) << subs << " " << chain << " " << cta;
        EXPECT_LE(longest, chain) << subs << " " << chain << " " << cta;
        if (promotions > 0) firsts.insert(first_promotion_sub_stage(subs, chain, cta, kPromoteStaggerGroups));
      }
      const int slack = ((subs - 1) / chain + 1) * chain - subs;
      if (base_promotions > 0 && slack >= kPromoteStaggerGroups)
        EXPECT_EQ(static_cast<int>(firsts.size()), kPromoteStaggerGroups) << subs << " " << chain;
    }
  }
  EXPECT_EQ(first_promotion_sub_stage(448, 128, 0, 4), 128);
  EXPECT_EQ(first_promotion_sub_stage(448, 128, 1, 4), 112);
  EXPECT_EQ(first_promotion_sub_stage(448, 128, 3, 4), 80);
  EXPECT_EQ(first_promotion_sub_stage(448, 128, 7, 4), 80);
  EXPECT_EQ(first_promotion_sub_stage(448, 128, 3, 1), 128);
}

// The codes form's wider limit (MXFP8, up to 16 rows): 16 x 28672 x 8192 (112 tiles of 256 weight rows,
// 128 stages) runs one whole tile a CTA on 112 CTAs (18% over an even split on 132), where the
// default limit keeps 132 CTAs of equal stream-K ranges.
TEST(StreamSchedule, SmallMTakesWholeTilesWithinTheWiderLimit) {
  const StreamSchedule plain = StreamSchedule::make(1, 112, 128, 132);
  EXPECT_EQ(plain.ctas, 132);
  EXPECT_EQ(plain.chunk, 1);
  const StreamSchedule whole = StreamSchedule::make(1, 112, 128, 132, kPhaseMaxImbalanceSmallM);
  EXPECT_EQ(whole.ctas, 112);
  EXPECT_EQ(whole.chunk, 128);
  for (int c = 0; c < whole.ctas; ++c) {
    int items = 0;
    for_each_work(whole, c, whole.ctas, [&](const StreamWork& w) {
      EXPECT_TRUE(w.whole(128)) << "CTA " << c;
      EXPECT_EQ(w.tile, c);
      ++items;
    });
    EXPECT_EQ(items, 1) << "CTA " << c;
  }
  // GpuStreamGemm.CodesFormWholeTilesMatchReference's shape (16 stages): whole tiles on 132 SMs.
  EXPECT_EQ(StreamSchedule::make(1, 112, 16, 132, kPhaseMaxImbalanceSmallM).chunk, 16);
  // Beyond the wider limit too (a 32% longest range): plain stream-K either way.
  EXPECT_EQ(StreamSchedule::make(1, 100, 16, 132, kPhaseMaxImbalanceSmallM).chunk, 1);
  // The forms that take it (stream_max_imbalance): the codes form, and the fp16 values form of
  // 32 rows only (measured there; the bf16 values forms and the wider tiles keep the default).
  EXPECT_EQ(stream_max_imbalance(true, false, 8), kPhaseMaxImbalanceSmallM);
  EXPECT_EQ(stream_max_imbalance(true, false, 16), kPhaseMaxImbalanceSmallM);
  EXPECT_EQ(stream_max_imbalance(false, true, 32), kPhaseMaxImbalanceSmallM);
  EXPECT_EQ(stream_max_imbalance(false, false, 32), kPhaseMaxImbalance);
  EXPECT_EQ(stream_max_imbalance(false, true, 16), kPhaseMaxImbalance);
  EXPECT_EQ(stream_max_imbalance(false, true, 64), kPhaseMaxImbalance);
  EXPECT_EQ(stream_max_imbalance(false, true, 128), kPhaseMaxImbalance);
}

// Chunked stream-K: whole tiles or halves of their K where that stays near an even split.
TEST(StreamSchedule, ChunksKeepCtasInKPhase) {
  // 256 x 8192 x 8192 (64 tiles, 128 stages): 128 CTAs of half a tile.
  const StreamSchedule halves = StreamSchedule::make(1, 64, 128, 132);
  EXPECT_EQ(halves.chunk, 64);
  EXPECT_EQ(halves.ctas, 128);
  EXPECT_EQ(halves.max_range(), 64);
  // 1024 x 8192 x 8192 (256 tiles, 1.94 waves): whole tiles, two a CTA at most.
  const StreamSchedule whole = StreamSchedule::make(4, 64, 128, 132);
  EXPECT_EQ(whole.dp_tiles, 0);
  EXPECT_EQ(whole.chunk, 128);
  EXPECT_EQ(whole.max_range(), 256);
  // 2.42 waves (320 tiles): one whole wave, then 188 tiles in halves.
  const StreamSchedule tail = StreamSchedule::make(5, 64, 128, 132);
  EXPECT_EQ(tail.dp_tiles, 132);
  EXPECT_EQ(tail.chunk, 64);
  // 224 tiles on 132 SMs: halves or whole tiles leave the longest CTA 18% over even: plain.
  EXPECT_EQ(StreamSchedule::make(1, 224, 128, 132).chunk, 1);
  // Halves need an even K in stages and at least the stream-K minimum of 8 stages each.
  EXPECT_EQ(StreamSchedule::make(1, 64, 127, 132).chunk, 1);
  EXPECT_EQ(StreamSchedule::make(1, 64, 14, 132).chunk, 1);
}

}  // namespace
}  // namespace mxgemm::sm90
