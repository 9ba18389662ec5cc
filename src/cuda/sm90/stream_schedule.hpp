// Work split of the weight-streaming GEMM, shared by the launcher and the kernel.
//
// Output tiles are kBlockN weight rows x kMPad activation rows. With few tiles (small M) the
// work is stream-K: the (tile, K stage) units in tile-major order are cut into `ctas`
// contiguous ranges, of equal length (+-1), or of whole chunks of a tile's K (half of it, or
// all) where that keeps them nearly equal: the CTAs then stand at one or two K offsets at a
// time and share the activation's lines in L2. A tile whose
// stages fall into several ranges is summed from the partials of those CTAs, always in CTA
// order, so results do not depend on timing.
//
// With many tiles (large M) the first `dp_tiles` tiles are data-parallel: whole tiles dealt
// round-robin, so the CTAs running at one time work on consecutive tiles, which the raster
// below keeps close in both operands (L2 reuse). The rest, between one and two waves, is
// stream-K as above, which evens out the last wave.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "core/kernel_override.hpp"  // detail::StreamWidth192
#include "mxgemm/layout.hpp"  // MXGEMM_HOST_DEVICE, ceil_div

namespace mxgemm::sm90 {

// 64-K sub-stages in one of the streaming kernel's stages (StreamGemmConfig::kSubStages says
// why): 2, stages of 128 K, for the codes form and tiles of up to 128 activation rows; 1 for
// 256-row tiles. The schedule below counts stages, so its minimums (kStreamMinStagesPerCta,
// kSplitMinStagesPerCta) are twice the K for the 128-K forms: as measured in session 20.
MXGEMM_HOST_DEVICE constexpr int stream_sub_stages(int m_pad, bool codes) { return codes || m_pad <= 128 ? 2 : 1; }
// K of a sub-stage (mainloop.cuh's kStageK; StreamGemmConfig asserts they agree), and the
// stages of a K for a tile of m_pad activation rows in that form.
constexpr int kStreamSubStageK = 64;
MXGEMM_HOST_DEVICE constexpr std::int64_t stream_k_stages(std::int64_t k, int m_pad, bool codes) {
  return (k + kStreamSubStageK * stream_sub_stages(m_pad, codes) - 1) / (kStreamSubStageK * stream_sub_stages(m_pad, codes));
}

// A CTA's share of the stream-K work is at least this many stages, so that the partial-tile
// fixups stay small next to the streaming.
constexpr int kStreamMinStagesPerCta = 8;
// Split reduction: when every tile is cut among at least this many CTAs on average (small M
// on a small weight: 4 tiles over 64 CTAs at 32 x 1024 x 8192), the last CTA to finish a tile
// would read all the others' partials alone, a few at a time. The kernel then only writes its
// partials, and a second kernel (stream_reduce_kernel.cuh) sums them over the whole GPU; a
// CTA's share may then be as short as kSplitMinStagesPerCta stages (2, 4 and 8 measured: 4
// best or within noise). On the H200, 32 x 1024 x 8192: 24.6 -> 19.9 us (MXFP8), 23.4 ->
// 18.4 us (weight-only), session 10.
constexpr int kSplitReduceCtasPerTile = 3;
constexpr int kSplitMinStagesPerCta = 4;
// The reduction kernel keeps a tile's partial addresses in shared memory: at most this many.
constexpr int kSplitReduceMaxCtas = 1024;
// Tile raster: groups of this many weight tiles, the activation tiles walked inside a
// group, so that a group's weight strip stays in L2 while the activation streams past it.
constexpr int kStreamGroupN = 16;
// Chunked stream-K (StreamSchedule::set_phase_chunk) is taken while its longest CTA is at most
// this much longer than a perfectly even split.
constexpr double kPhaseMaxImbalance = 1.10;
// The same limit for the codes form of the four-warpgroup kernels (MXFP8 activations of up to
// 16 rows), which streams the weight with the least work a stage: there whole tiles (one a
// CTA, no stream-K parts to sum) may cost up to 20% more stages a CTA. On the H200 a TMA ring
// alone streamed 28672 x 8192 bytes as 112 whole 256-row tiles on 112 CTAs in 67.5 us, as the
// same tiles cut in 132 equal ranges in 70.2 (bench/spike/ring_stream.cu); the GEMM 16 x 28672
// x 8192 went 73.9 -> 71.2 us, 16 x 14336 x 8192 47.1 -> 44.1. The values form (bf16
// activations) lost 1-2% at 1..16 x 28672 x 8192 with it: its longer stage makes the extra
// stages cost (bench/results/s17/, session 17).
constexpr double kPhaseMaxImbalanceSmallM = 1.20;
// The schedule's limit for a tile form: the wider one for the codes form and for the fp16 values
// form of 32 rows (MXFP8 E4M3 x E4M3 of 17..32 rows, weight-only FP16), whose stage is as
// cheap: at 32 x 28672 x K that is 112 whole 256-row tiles on 112 CTAs. On the H200, same call,
// two rounds (session 29, bench/results/s29/b4): MXFP8 32 x 28672 x 8192 74.2-74.8 -> 69.6-70.2
// us, 32 x 28672^2 237.5-238.0 -> 230.0-231.0, 32 x 14336 x 8192 (halves) 45.6-45.7 -> 43.2-43.4,
// weight-only FP16 32 x 28672 x 8192 73.4-73.5 -> 68.0-68.5. The bf16 values forms keep the
// default: the same limit took the MX bf16 form (E5M2) at 32 x 28672^2 from 268 to 287-293 us.
constexpr double stream_max_imbalance(bool codes, bool f16_values, int m_pad) {
  return codes || (f16_values && m_pad == 32) ? kPhaseMaxImbalanceSmallM : kPhaseMaxImbalance;
}

// The K that one chain of unpromoted wgmma accumulation may sum for output type `out`. The
// tensor core's fp32 accumulation is not round-to-nearest, and its error grows with the chain:
// 256-row tiles dealt whole (no promotion before session 23) came out on the H200 at 9.6e-6
// relative error in FP32 at K = 8192 and 1.9e-5 at 16384 (bar 1e-5), FP16 at 97.2% correctly
// rounded at 8192 (bar 99%), BF16 at 99.52% at 8192 and 98.9% at 28672
// (GpuStreamGemm.WholeTilesOfLongKMatchReference, 8448 x 1024; chains of 2048 / 4096: FP16
// 99.26%, FP32 4.8e-6). About half the K where the error reached the bar: the 256-row tiles
// promote their sum (kPromoteInGlobal) after chains of this K. FP32 was 4096 until session 24,
// when operands of one sign (no cancellation: the rounding errors add up along the chain) came
// out at 1.12e-5-1.18e-5 with chains of 4096 K, 5.6e-6-5.8e-6 with 2048 (whole-tile test, K =
// 8192 and 28672, bench/results/s24/b5); BF16 out at 8192 gave 99.59-99.62% there, FP16 at
// 2048 99.81-99.86%.
constexpr std::int64_t unpromoted_chain_k(DType out) { return out == DType::BF16 ? 8192 : 2048; }

// Where a work item of `subs` sub-stages promotes (kPromoteInGlobal) after chains of `chain`:
// the sub-stage of its first promotion, the later ones every `chain` after it. With every CTA
// in K phase (whole tiles), all CTAs would promote at once. The chains leave slack where `subs`
// is not a multiple of `chain` (the last one is short): CTA `cta` spends (cta % groups) / groups
// of that slack on a shorter first chain, so the CTAs promote at `groups` different times and no
// item promotes more often, nor chains more than `chain`. groups == 1: at `chain` (every CTA at
// once). Measured when a promotion wrote a CTA's whole fp32 sum (128 KB) to global memory: on an
// H100 (session 58, `--promote unstaggered` against auto, 2048 / 4096 x 8192 x 28672) it took
// 0.4-2.7% off; the rest of the promotion's cost (3-4%) was each CTA's own 128 KB leaving the
// SM, which TMA's bulk add took as long to write (session 59). Since session 60 a promotion
// keeps most of the sum in shared memory and writes 8 KB (256 rows) or nothing (192 rows);
// the stagger stays, unmeasured since (bench/results/s58-s60).
MXGEMM_HOST_DEVICE constexpr int first_promotion_sub_stage(int subs, int chain, int cta, int groups) {
  const int promotions = subs > 0 ? (subs - 1) / chain : 0;
  if (promotions == 0 || groups <= 1) return chain;
  const int slack = (promotions + 1) * chain - subs;  // unused chain capacity, < chain
  return chain - (cta % groups) * slack / groups;
}
// The promotion times first_promotion_sub_stage spreads the CTAs over.
constexpr int kPromoteStaggerGroups = 4;

// Above 128 rows: 256-row tiles, except for FP16 output whose K needs a promotion
// (unpromoted_chain_k), which takes the 128-row tiles (promoted every 512 K in registers). The
// 256-row tiles promoting every 2048 K were faster (H200, session 24, bench/results/s24/b1:
// 4096 x 8192^2 FP16 out 781 against 853 us) but rounded only 99.06-99.19% of FP16 outputs
// correctly on the whole-tile test (bar 99%: a fresh seed would fail it now and then), against
// 99.22-99.76% for the 128-row tiles. FP32 (2.4-5.8e-6, bar 1e-5) and BF16 (99.47-99.89%) promote
// on the 256-row tiles at any K: there the promotion, since session 24, costs less than the
// 128-row tiles (FP32 out, same run, b5: 4096 x 8192^2 789 against 864 us, 8192 x 8192^2 1579
// against 1730, 4096 x 8192 x 28672 2737-2778 against 3180-3198).
constexpr bool wide_tiles_preferred(DType out, std::int64_t k) { return out != DType::FP16 || k <= unpromoted_chain_k(out); }

// The K split among a CTA's math warpgroups (StreamGemmConfig::kSplitK: 64-row weight tiles,
// one a CTA over the whole K, ring stages of one 128-K part a warpgroup: four up to 32
// activation rows, two for 33..64) runs for one activation tile where those tiles fill 90% to
// 100% of the SMs (N = 7553..8448 on 132), and K is at least kSplitKMinK.
constexpr int kSplitKRowsPerTile = 64;
constexpr int kSplitKParts = 4;  // 128-K parts of a ring stage, one a warpgroup (up to 32 rows)
MXGEMM_HOST_DEVICE constexpr int split_k_parts(int m_pad) { return m_pad <= 32 ? kSplitKParts : 2; }
constexpr std::int64_t kSplitKMinK = 2048;
// Where 33..64 activation rows take the two-warpgroup split, in clusters (split_k_cluster_ctas
// with two parts: N = 1024..4096 on the H200), and no other schedule: K >= kTwoWarpgroupSplitMinK
// (as measured) and not FP16 activations (the fp16 values form of the natural K order, not
// measured there). Its activation boxes lie within M (activation_box_rows in the launcher):
// boxes that reach past M, whose rows TMA fills with zeros, made the split slower than the split
// reduction and the 128-row tiles' clusters (MXFP8 33 x 4096 x 8192 24.1 -> 29.2 us); with boxes
// of M rows it was faster than both (20.6-20.7 us). On the H200, same call, two rounds
// (bench/results/s38/b1, b2): every 64-row shape measured faster, MXFP8 64 x 4096^2 18.9-19.0 ->
// 16.7 us, 64 x 4096 x 8192 23.9-24.0 -> 21.5-21.6, 64 x 1024 x 8192 16.8-17.0 -> 15.5-15.7;
// weight-only 64 x 4096^2 18.4-18.5 -> 16.3-16.4; and 33..63 rows (bench/results/s39/b1, c0 ->
// w3), MXFP8 33 x 4096^2 18.3-18.7 -> 15.8-16.0, 48 x 4096 x 8192 23.7-23.8 -> 21.1-21.3.
constexpr std::int64_t kTwoWarpgroupSplitMinK = 4096;
constexpr bool two_warpgroup_split_preferred(std::int64_t m, std::int64_t k, bool fp16_activation) {
  return m > 32 && m <= 64 && k >= kTwoWarpgroupSplitMinK && !fp16_activation;
}
// Where the 64-row tiles alone fill the SMs (split_k_fills: N = 8192 on 132), MXFP8 33..64 rows
// (the pre-pass's permuted K order) take that split one tile a CTA, up to K =
// kTwoWarpgroupFillMaxK; beyond it the 64-row tiles' stream-K is faster. H200, same call, two
// rounds (bench/results/s42/b, set E, the split forced against the choice before it): 48 / 64 x
// 8192 x 4096 19.3-19.4 / 19.2-19.3 -> 17.9-18.0 / 18.2-18.3 us, x 8192 28.1 / 28.4-28.6 ->
// 27.6 / 28.1-28.2; x 12288 38.0-38.3 / 38.8-39.1 -> 38.6-39.2 / 39.7-40.3, x 16384 2-4% slower.
// BF16 activations (the natural K order) were not measured there and keep the stream-K.
constexpr std::int64_t kTwoWarpgroupFillMaxK = 8192;
constexpr bool two_warpgroup_fill_preferred(std::int64_t m, std::int64_t k, bool permuted_x) {
  // (Permuted rows are never FP16 activations: those run in their natural K order.)
  return permuted_x && k <= kTwoWarpgroupFillMaxK && two_warpgroup_split_preferred(m, k, false);
}
// Tiles of 192 activation rows (wgmma n = 192) where the 256-row tiles would run
// (wide_tiles_preferred) and as few of them cover M: 129..192, 257..384 and 513..576 rows, a
// quarter less tensor work in the same number of tiles. More tiles of 192 rows than of 256 lost
// (900 rows, 5 against 4: 211.6 -> 221.5 us). H100, same binary, two rounds, --width-192 never
// against auto: MXFP8 129 / 160 / 192 x 8192^2 56.4-56.0 / 56.5-56.6 / 58.3-57.8 -> 45.8-46.0 /
// 46.1-46.7 / 46.3-47.4 us (session 46, bench/results/s46/call4). H200, same binary (session 47,
// bench/results/s47/call2, two rounds at 129..192): weight-only (BF16 activations read in place)
// 129 / 160 / 192 x 8192^2 55.7 / 56.6 / 57.5-56.8 -> 49.7 / 50.4-50.6 / 50.4-51.0, FP16
// activations 54.1-54.3 / 54.3-54.5 / 55.4-55.6 -> 46.8-47.1 / 47.3-47.4 / 47.7, 160 x 4096 /
// 28672 x 8192 39.4 / 201.9 -> 34.9 / 177.4; several tiles (one round), MXFP8 300 / 384 / 520 /
// 576 x 8192^2 100.0 / 101.8 / 159.9 / 164.9 -> 94.4 / 84.8 / 133.2 / 137.2, weight-only 119.2 /
// 97.2 / 182.0 / 174.2 -> 86.3 / 89.7 / 142.3 / 143.8. (Always: 192-row tiles at every M above
// 128, to time them where they need more tiles.)
constexpr int kWideTileRows = 256, kNarrowWideTileRows = 192;
constexpr bool width_192_taken(detail::StreamWidth192 mode, std::int64_t m) {
  if (m <= 128 || mode == detail::StreamWidth192::Never) return false;
  return mode == detail::StreamWidth192::Always || ceil_div(m, kNarrowWideTileRows) == ceil_div(m, kWideTileRows);
}

// The last, partial wave of whole tiles cut into stream-K ranges over all the CTAs. 2^k or
// 7 x 2^k tiles on 132 SMs leave it 3-94% full, and dealt whole (the 90% rule in
// StreamSchedule::make) every CTA of it runs a tile more than the rest: 14 of the large suite's
// 16 shapes ran 3.1% over an even split (trace build, H100, session 66). Cut into ranges, the
// CTAs stand at unrelated K offsets and read their own activation lines, so this pays only where
// the wave is thin and a tile's K moderate. H100, same run, two rounds (bench/results/s66/call2, weight-only, 256-row tiles):
// faster where the wave is at most 58% full at K = 8192 (8192 x 8192^2 1533 / 1538 -> 1458 /
// 1452 us, 2048 / 4096 x 28672 x 8192 1397 / 1383 -> 1272 / 1285, 2664 / 2665 -> 2525 / 2527;
// MXFP8 the same shapes 4-7%; 8192 x 28672 x 8192, 30% full, level), slower where it is 76-88%
// full (2048 x 8192^2 372 -> 434, 4096 x 8192^2 740 -> 821) and at K = 28672 (8192 x 8192 x
// 28672, 52% full, 5009 -> 5194) and level or slower at K = 4096 (16384 x 4096^2, 52%, 784 ->
// 795). Session 67 (H100, the same binary, bench/results/s67 calls 1-2) timed the window's
// edges on the four thin shapes (2048 / 4096 / 8192 x 28672, 8192 x 8192), weight-only: at
// K = 6144 level over three rounds (0 to 3% slower in the first; MXFP8 level), at 12288 level
// to 2.4% faster, at 16384 from 1.7% slower to 2.3% faster; K = 8192 again 1-7% faster. So: the
// 256-row tiles, K from kLastWaveStreamKMinK (halfway between the level 6144 and 8192; session
// 68 timed it: weight-only 0.7-4.3% faster in 7 of 8 pairs, MXFP8 mixed) to
// kLastWaveStreamKMaxK, a last wave at most kLastWaveStreamKMaxFill full, and at least
// kStreamMinStagesPerCta stages for every CTA.
constexpr double kLastWaveStreamKMaxFill = 0.6;
constexpr std::int64_t kLastWaveStreamKMinK = 7168, kLastWaveStreamKMaxK = 12288;
constexpr bool last_wave_stream_k_preferred(int m_pad, std::int64_t k) {
  return m_pad == kWideTileRows && k >= kLastWaveStreamKMinK && k <= kLastWaveStreamKMaxK;
}

// The rows of an MXFP8 activation's pre-pass copy in the workspace (its tensor map's rows) for
// a launch of m rows in tiles of m_pad: whole tiles where the last tile holds at most half a
// tile of rows, so that its TMA boxes stay within the tensor (TMA fills the rows of a box past
// the tensor with zeros, which was slow), else m. The padded rows hold whatever the workspace
// held; as the tile's rows past M their products land only in D's columns past M, which no
// store writes. H100, same binary (session 46, bench/results/s46/call4 and call5, one round each,
// --padded-ws never against auto; 256-row tiles): MXFP8 300 / 600 / 2100 x 8192^2 (last tiles
// of 44 / 88 / 52 rows) 138.7-142.1 / 199.9 / 476.9-485.6 -> 98.8-100.5 / 160.4-161.6 /
// 451.3-461.7 us; 1000 rows (232) 209.9-208.5 -> 208.6-211.4, no faster: they keep M rows. The
// pre-pass copies of BF16 activations (weight-only) were not measured and keep M rows.
constexpr std::int64_t workspace_activation_rows(std::int64_t m, int m_pad, bool mx_activation) {
  const std::int64_t tiles = ceil_div(m, m_pad), last = m - (tiles - 1) * m_pad;
  return mx_activation && tiles > 1 && 2 * last <= m_pad ? tiles * m_pad : m;
}

// Ring stages of K: `parts` 128-K stages (two sub-stages) each.
MXGEMM_HOST_DEVICE constexpr std::int64_t split_k_ring_stages(std::int64_t k, int parts = kSplitKParts) {
  const std::int64_t ring_k = std::int64_t{parts} * 2 * kStreamSubStageK;
  return (k + ring_k - 1) / ring_k;
}
inline bool split_k_fills(std::int64_t n, int sms) {
  const std::int64_t tiles = (n + kSplitKRowsPerTile - 1) / kSplitKRowsPerTile;
  return tiles <= sms && tiles * 10 >= static_cast<std::int64_t>(sms) * 9;
}
// Where the 64-row tiles are too few to fill the SMs (N = 1024..4096 on 132), each tile's K is
// split among a cluster of CTAs as well, in equal ranges of ring stages, one a CTA: the
// cluster's CTAs sum their tile through distributed shared memory (stream_gemm_kernel.cuh), so
// no partial goes through L2 and no second kernel runs (the split reduction's second kernel
// cost 2.7-5.6 us on these shapes, bench/results/s35/b2). At most 8 CTAs a cluster (the
// portable size), and only as many clusters as the device runs at once: a cluster's CTAs share
// a GPC, and the H200 runs 66 clusters of 2 but 30 of 4 and 15 of 8 (bench/results/s36/b1);
// one cluster left for a second wave cost more than the split saves (32 x 1024 x 4096 in 16
// clusters of 8: 21.0 us against 14.9 for the split reduction).
constexpr int kSplitKMaxClusterCtas = 8;
// The clusters run where their CTAs fill this share of the SMs (see docs/streaming-kernel.md,
// session 36).
constexpr double kSplitKClusterMinFill = 0.70;
// CTA `rank`'s first ring stage of a tile of `stages` ring stages split among `ctas` CTAs.
MXGEMM_HOST_DEVICE constexpr int split_k_range_begin(int rank, int stages, int ctas) { return rank * stages / ctas; }
// Whether every CTA's range gives each of the `parts` warpgroups some K: the last range, if it
// is one ring stage, must reach the stage's last 128-K part.
constexpr bool split_k_ranges_fit(std::int64_t k, int ctas, int parts = kSplitKParts) {
  const std::int64_t stages = split_k_ring_stages(k, parts);
  if (ctas < 1 || stages < ctas) return false;
  const std::int64_t last = stages - split_k_range_begin(ctas - 1, static_cast<int>(stages), ctas);
  const std::int64_t ring_k = std::int64_t{parts} * 2 * kStreamSubStageK;
  return last >= 2 || k - (stages - 1) * ring_k > (parts - 1) * 2 * kStreamSubStageK;
}
// The CTAs each of `tiles` tiles' K is split among (a cluster of 2..kSplitKMaxClusterCtas), or 1
// where the clusters do not apply: the most CTAs that the SMs hold with all the tiles' clusters
// at once (max_clusters(c): clusters of c CTAs the device runs at once) and whose ranges
// fit(c); 1 where the tiles alone fill half the SMs or more, or where the clusters' CTAs fill
// less than min_fill of them (unless `any_fill`: tests force the clusters wherever they can run).
template <typename MaxClusters, typename RangesFit>
int cluster_ctas_a_tile(std::int64_t tiles, int sms, const MaxClusters& max_clusters, const RangesFit& fit,
                        double min_fill, bool any_fill) {
  if (tiles * 2 > sms) return 1;
  int ctas = static_cast<int>(sms / tiles < kSplitKMaxClusterCtas ? sms / tiles : kSplitKMaxClusterCtas);
  while (ctas >= 2 && (!fit(ctas) || tiles > max_clusters(ctas))) --ctas;
  if (ctas < 2 || (!any_fill && static_cast<double>(tiles * ctas) < min_fill * sms)) return 1;
  return ctas;
}
// The kSplitK tiles' clusters (`parts` warpgroups a CTA): every range has K for every
// warpgroup (split_k_ranges_fit), kSplitKClusterMinFill.
template <typename MaxClusters>
int split_k_cluster_ctas(std::int64_t n, std::int64_t k, int sms, const MaxClusters& max_clusters, bool any_fill = false,
                         int parts = kSplitKParts) {
  return cluster_ctas_a_tile((n + kSplitKRowsPerTile - 1) / kSplitKRowsPerTile, sms, max_clusters,
                             [k, parts](int ctas) { return split_k_ranges_fit(k, ctas, parts); }, kSplitKClusterMinFill,
                             any_fill);
}

// The same clusters for the two-warpgroup tiles of 33..64 activation rows (128 weight rows, no
// K split among the warpgroups; StreamSchedule::k_split over its 128-K stages), where the split
// reduction would run (one activation tile whose weight tiles are too few for the SMs): each
// tile's K in equal ranges among a cluster of CTAs, summed through distributed shared memory.
// Every range at least kWideClusterMinStages stages (as the split reduction's CTAs,
// kSplitMinStagesPerCta). They fill fewer SMs than the split reduction (96 of 132 where it
// takes 128 to 132), which costs the math of these rows more than the four-warpgroup tiles': on
// the H200 (same call, two rounds, bench/results/s37/b1) they were faster for MXFP8 activations
// on weights below kWideClusterMaxWeightElems, or level, by up to 2.8 us (40 / 64 x 3072 x 4096
// 19.2-19.4 / 19.1-19.3 -> 16.5-16.6 / 16.6-16.8 us; 64 x 1024 x 8192 17.8 -> 16.8-16.9 in
// clusters of 8 on 64 SMs: hence a 45% fill), and up to 1.1 us slower at 4096 x 8192;
// weight-only (BF16 activations, the natural K order) was slower on most of these shapes (64 x
// 4096 x 8192 23.6-23.9 -> 26.9-27.1 us), so it keeps the split reduction. At least
// kWideClusterMinCtas CTAs a tile: in pairs (N = 5120: 40 tiles on 80 CTAs, where the split
// reduction cuts each tile in three on 120) 33 / 64 x 5120 x 6144 took 24.2-24.6 / 23.7 -> 25.8-26.0
// / 26.2-26.3 us, while clusters of 3 at N = 4608 (108 CTAs) gained 1.5-2.7 us (b5).
// The kernel forms built with these clusters (stream_gemm_m64_clusters.cu): the 64-row values
// form of MXFP8 activations (the permuted K order).
MXGEMM_HOST_DEVICE constexpr bool wide_clusters_built(int m_pad, bool codes, bool permuted_x) {
  return m_pad == 64 && !codes && permuted_x;
}
constexpr int kWideClusterRowsPerTile = 128;
constexpr int kWideClusterMinStages = kSplitMinStagesPerCta;
constexpr double kWideClusterMinFill = 0.45;
constexpr int kWideClusterMinCtas = 3;
constexpr std::int64_t kWideClusterMaxWeightElems = std::int64_t{1} << 25;
template <typename MaxClusters>
int wide_cluster_ctas(std::int64_t n, std::int64_t k_stages, int sms, const MaxClusters& max_clusters, bool any_fill = false) {
  const int ctas = cluster_ctas_a_tile((n + kWideClusterRowsPerTile - 1) / kWideClusterRowsPerTile, sms, max_clusters,
                                       [k_stages](int c) { return k_stages >= std::int64_t{kWideClusterMinStages} * c; },
                                       kWideClusterMinFill, any_fill);
  return ctas >= kWideClusterMinCtas || any_fill ? ctas : 1;
}

struct StreamTile {
  int m, n;  // activation tile (kMPad rows), weight tile (kBlockN rows)
};

struct StreamSchedule {
  int tiles_m, tiles_n, k_stages;
  int dp_tiles;        // tiles [0, dp_tiles): whole, round-robin over the CTAs
  std::int64_t units;  // (tiles - dp_tiles) * k_stages: the stream-K units
  int ctas;
  bool split_reduce;   // partial tiles are summed by the reduction kernel, not by their last CTA
  // The stream-K ranges start and end on chunk boundaries: `chunks` chunks of `chunk` stages,
  // a whole number of them per tile (chunk == 1: plain stream-K). Whole halves keep the CTAs
  // in K phase (set_phase_chunk below). chunks is units / chunk, kept so that the kernel's
  // range lookups need no extra 64-bit division.
  int chunk;
  std::int64_t chunks;
  // Halves interleaved (interleave_halves): a CTA whose range is one half of a tile's K runs
  // every other stage of the whole K instead, from stage 0 or 1, so that all CTAs stand at
  // about the same K.
  bool interleaved = false;
  // Interleaved halves, one per CTA, whose two CTAs run as a cluster of two (ranks 0 and 1 =
  // halves 0 and 1): each CTA sends the other the half of its partial that the other finishes
  // and stores, through distributed shared memory, not through L2 and a counter
  // (stream_gemm_kernel.cuh; the launcher sets it where the device fits all those clusters at
  // once).
  bool paired = false;
  // The one_tile_per_cta schedule: the CTAs a tile's K is split among, a cluster of that many
  // (split_k_cluster_ctas, wide_cluster_ctas), each with a range of the stages; 1: one CTA a tile.
  int k_split = 1;

  MXGEMM_HOST_DEVICE int tiles() const { return tiles_m * tiles_n; }

  // Output tile of tile index t, in groups of kStreamGroupN weight tiles.
  MXGEMM_HOST_DEVICE StreamTile coord(int t) const {
    const int per_group = kStreamGroupN * tiles_m;
    const int first_n = (t / per_group) * kStreamGroupN;
    const int group_n = tiles_n - first_n < kStreamGroupN ? tiles_n - first_n : kStreamGroupN;
    const int in_group = t % per_group;
    return {in_group / group_n, first_n + in_group % group_n};
  }

  // ---- the stream-K part: tile indices below are relative to dp_tiles --------------------
  // First unit of CTA c (c == ctas gives the end of the last range): chunks dealt evenly.
  MXGEMM_HOST_DEVICE std::int64_t begin(int c) const { return c * chunks / ctas * chunk; }
  // The CTA whose range holds unit u: the largest c whose first chunk is at or before u's.
  // (Units fit 32 bits: the launcher refuses 2^31 tile-stages or more.)
  MXGEMM_HOST_DEVICE int cta_of_unit(std::int64_t u) const {
    const std::int64_t h = static_cast<int>(u) / chunk;
    return static_cast<int>(((h + 1) * ctas + chunks - 1) / chunks - 1);
  }
  MXGEMM_HOST_DEVICE int first_cta(int tile) const {
    return cta_of_unit(static_cast<std::int64_t>(tile) * k_stages);
  }
  MXGEMM_HOST_DEVICE int last_cta(int tile) const {
    return cta_of_unit(static_cast<std::int64_t>(tile + 1) * k_stages - 1);
  }
  // Each CTA has at most two partial tiles, the first and the last it touches: the slot of
  // CTA c's partial of `tile` in the partials buffer.
  MXGEMM_HOST_DEVICE int partial_slot(int c, int tile) const {
    return 2 * c + (tile == begin(c) / k_stages ? 0 : 1);
  }
  MXGEMM_HOST_DEVICE int stream_tiles() const { return tiles() - dp_tiles; }
  // The longest stream-K range, in stages.
  MXGEMM_HOST_DEVICE std::int64_t max_range() const {
    return chunks == 0 ? 0 : (chunks + ctas - 1) / ctas * chunk;
  }
  // The most work items (for_each_work) any CTA gets: its round-robin whole tiles, and the
  // tiles its stream-K range touches.
  MXGEMM_HOST_DEVICE int max_items_per_cta() const {
    return (dp_tiles + ctas - 1) / ctas + static_cast<int>((max_range() + k_stages - 1) / k_stages) + 1;
  }

  // Halves of a tile's K (chunk == k_stages / 2) as every other stage (see `interleaved`).
  void interleave_halves() { interleaved = chunk > 1 && chunk * 2 == k_stages; }
  // Whether every CTA has one interleaved half (the condition for `paired`).
  MXGEMM_HOST_DEVICE bool one_half_per_cta() const {
    return interleaved && dp_tiles == 0 && ctas == 2 * stream_tiles();
  }

  // Whole tiles of one activation tile, one a CTA (tile c on CTA c): the kSplitK schedule;
  // with split_ctas > 1 (kSplitK, or the 64-row values form) each tile's stages in that many
  // ranges (tile c / split_ctas, range c % split_ctas: a cluster's CTAs are consecutive).
  static StreamSchedule one_tile_per_cta(int tiles_n, int k_stages, int split_ctas = 1) {
    StreamSchedule s{1, tiles_n, k_stages, tiles_n, 0, tiles_n * split_ctas, false, 1, 0};
    s.k_split = split_ctas;
    return s;
  }
  // Of the one_tile_per_cta schedule: CTA cta's tile, and its rank in the tile's cluster.
  MXGEMM_HOST_DEVICE int split_tile(int cta) const { return k_split == 1 ? cta : cta / k_split; }
  MXGEMM_HOST_DEVICE int split_rank(int cta) const { return cta - split_tile(cta) * k_split; }

  // One CTA per SM, fewer when the work is short. max_imbalance: set_phase_chunk's limit.
  // last_wave_stream_k: the tile form and K where a thin last wave runs as stream-K
  // (last_wave_stream_k_preferred).
  static StreamSchedule make(int tiles_m, int tiles_n, int k_stages, int sms,
                             double max_imbalance = kPhaseMaxImbalance, bool last_wave_stream_k = false) {
    StreamSchedule s{tiles_m, tiles_n, k_stages, 0, 0, 1, false, 1, 0};
    const int tiles = tiles_m * tiles_n;
    bool thin_last_wave = false;
    if (tiles >= 2 * sms) {
      const int waves = (tiles + sms - 1) / sms;
      // All tiles whole when the last wave is at least 90% full. Stream-K's CTAs run
      // unrelated K ranges at once, so they share nothing in L2: at 2048 x 8192 x 28672 (3.9
      // waves, half of them stream-K) DRAM ran at 56% and the GEMM at 0.78x cuBLAS, where
      // the data-parallel waves of 16384 rows reach 0.95x. Otherwise whole waves but the
      // last one or two, the rest stream-K.
      s.dp_tiles = static_cast<std::int64_t>(tiles) * 10 >= static_cast<std::int64_t>(waves) * sms * 9
                       ? tiles
                       : (tiles / sms - 1) * sms;
      // A thin last wave in stream-K ranges over every CTA (kLastWaveStreamKMaxFill; its stages
      // give each at least kStreamMinStagesPerCta, so ctas_for below takes every SM).
      const int last = tiles % sms;
      thin_last_wave = last_wave_stream_k && s.dp_tiles == tiles && last > 0 && last <= kLastWaveStreamKMaxFill * sms &&
                       static_cast<std::int64_t>(last) * k_stages >= static_cast<std::int64_t>(kStreamMinStagesPerCta) * sms;
      if (thin_last_wave) s.dp_tiles = tiles - last;
    }
    s.units = static_cast<std::int64_t>(tiles - s.dp_tiles) * k_stages;
    s.chunks = s.units;
    if (s.dp_tiles == tiles) {
      s.ctas = sms;
      return s;
    }
    auto ctas_for = [&](int min_stages) {
      const std::int64_t by_work = s.units / min_stages;
      return static_cast<int>(by_work < 1 ? 1 : (by_work < sms ? by_work : sms));
    };
    s.ctas = ctas_for(kStreamMinStagesPerCta);
    if (s.dp_tiles == 0 && s.ctas >= kSplitReduceCtasPerTile * tiles && sms <= kSplitReduceMaxCtas) {
      s.split_reduce = true;
      s.ctas = ctas_for(kSplitMinStagesPerCta);
      // Equal parts of a tile's K, one a CTA, where they fill 90% of the SMs: no range then
      // crosses into a second tile. On the H200, same run (session 18), 8192 x 28672 as 32
      // tiles x 4 quarters on 128 CTAs instead of 132 equal ranges: MXFP8 16 rows 76.6 / 76.2
      // -> 75.3 / 74.8 us, weight-only 1 / 32 rows 73.9 / 82.8 -> 73.1 / 81.4; weight-only
      // 32 x 4096 x 4096 (16 tiles x 8 parts) 20.7 / 20.4 -> 19.7 / 19.1, 32 x 8192 x 8192
      // 35.6 -> 34.4.
      const int parts = sms / tiles;
      if (parts >= 2 && k_stages % parts == 0 && static_cast<std::int64_t>(tiles) * parts * 10 >= static_cast<std::int64_t>(sms) * 9 &&
          k_stages / parts >= kSplitMinStagesPerCta) {
        s.chunk = k_stages / parts;
        s.chunks = static_cast<std::int64_t>(tiles) * parts;
        s.ctas = tiles * parts;
      }
      return s;
    }
    // (A thin last wave keeps plain ranges: set_phase_chunk's whole tiles would put it back on
    // fewer CTAs.)
    if (!thin_last_wave) s.set_phase_chunk(sms, max_imbalance);
    return s;
  }

 private:
  // Stream-K cuts the units into equal ranges, so at any moment its CTAs stand at as many
  // different K offsets as there are CTAs, and each reads its own lines of the activation,
  // which every weight tile shares: on the H200, TMA streamed a 28672 x 8192 weight with a
  // 256-row bf16 activation in 156 us with the CTAs spread over K, 92 us with all of them at
  // the same K, 102 us at two offsets, 124 us at four (128 rows: 94, 83, 84, 90 us; 64 rows:
  // no difference; bench/spike/tma_stream.cu, session 12). Ranges of whole tiles, or of whole
  // halves of a tile's K, keep the CTAs at one or two offsets; they are taken, the fewer
  // offsets first, where their longest range stays within kPhaseMaxImbalance of an even split.
  // Not taken, measured on the H200 at 128 and 256 x 28672 x 8192 (224 tiles on 132 SMs):
  // quarters, at four offsets, were no faster than plain stream-K (135 -> 137, 188 -> 189 us);
  // one whole wave followed by quarters was slower (133 -> 138, 186 -> 195 us); so was a limit
  // of 1.20 instead of 1.10, which gives them whole tiles or halves 18% over even (131 -> 138,
  // 181 -> 185 us; 128 x 28672 x 28672 382 -> 427 us). There the compute that the imbalance
  // adds outweighs the shared lines.
  void set_phase_chunk(int sms, double max_imbalance) {
    const std::int64_t tail_tiles = tiles() - dp_tiles;
    const double even = static_cast<double>(tiles()) * k_stages / sms;
    const std::int64_t dp_stages = static_cast<std::int64_t>(dp_tiles / sms) * k_stages;
    for (int parts : {1, 2}) {
      if (k_stages % parts != 0 || (parts > 1 && k_stages / parts < kStreamMinStagesPerCta)) continue;
      const std::int64_t n = tail_tiles * parts;
      const std::int64_t ctas_n = n < sms ? n : sms;
      const double longest = static_cast<double>(dp_stages + (n + ctas_n - 1) / ctas_n * (k_stages / parts));
      if (longest <= max_imbalance * even) {
        chunk = k_stages / parts;
        chunks = n;
        ctas = static_cast<int>(ctas_n);
        return;
      }
    }
  }
};

// A CTA's work items in the order it runs them: tile `tile` (absolute index), stages
// [ks0, ks_end); `stream_tile` is the stream-K tile index, or -1 for a data-parallel tile.
// With step 2 (interleaved halves) the stages are ks0, ks0 + 2, ... below ks_end.
// How many stages that is (step 1 or 2).
MXGEMM_HOST_DEVICE int stages_in(int ks0, int ks_end, int step) {
  return step == 1 ? ks_end - ks0 : (ks_end - ks0 + 1) >> 1;
}
struct StreamWork {
  int tile, stream_tile, ks0, ks_end, step;
  MXGEMM_HOST_DEVICE bool whole(int k_stages) const { return ks0 == 0 && ks_end == k_stages && step == 1; }
  MXGEMM_HOST_DEVICE int stages() const { return stages_in(ks0, ks_end, step); }
};

// Walks the work items of one CTA with a single call site of f (the kernel inlines its
// mainloop into f: one copy keeps the instruction cache warm). kInterleave: s may have its
// halves interleaved (the kernels that never run them leave the test out).
template <bool kInterleave = false, typename F>
MXGEMM_HOST_DEVICE void for_each_work(const StreamSchedule& s, int cta, int ctas, F&& f) {
  // Stream-K units fit 32 bits (fewer than two waves of tiles, or all of them when they are
  // fewer than 2 * SMs); 32-bit loop state keeps registers free for the mainloop.
  int u = cta < s.ctas ? static_cast<int>(s.begin(cta)) : 0;
  const int u_end = cta < s.ctas ? static_cast<int>(s.begin(cta + 1)) : 0;
  int t = cta;  // next data-parallel tile
  while (t < s.dp_tiles || u < u_end) {
    StreamWork w;
    if (t < s.dp_tiles) {
      w = StreamWork{t, -1, 0, s.k_stages, 1};
      t += ctas;
    } else {
      const int tile = u / s.k_stages, ks0 = u % s.k_stages;
      const int ks_end = u_end - u < s.k_stages - ks0 ? ks0 + (u_end - u) : s.k_stages;
      w = StreamWork{s.dp_tiles + tile, tile, ks0, ks_end, 1};
      if (kInterleave && s.interleaved && ks_end - ks0 == s.chunk)
        w = StreamWork{s.dp_tiles + tile, tile, ks0 == 0 ? 0 : 1, s.k_stages, 2};
      u += ks_end - ks0;
    }
    f(w);
  }
}

// for_each_work, or for the one_tile_per_cta schedule its one item, tile `cta` over
// the whole K or (kClusterRanges: k_split > 1) its cluster rank's range of its tile, without
// the walk's loop state (the split's loops need those registers).
template <bool kInterleave, bool kOneTilePerCta, bool kClusterRanges = false, typename F>
MXGEMM_HOST_DEVICE void walk_work(const StreamSchedule& s, int cta, int ctas, F&& f) {
  if constexpr (kOneTilePerCta && kClusterRanges) {
    const int tile = s.split_tile(cta), rank = cta - tile * s.k_split;  // (split_rank, from the tile)
    if (tile < s.dp_tiles)
      f(StreamWork{tile, -1, split_k_range_begin(rank, s.k_stages, s.k_split),
                   split_k_range_begin(rank + 1, s.k_stages, s.k_split), 1});
  } else if constexpr (kOneTilePerCta) {
    if (cta < s.dp_tiles) f(StreamWork{cta, -1, 0, s.k_stages, 1});
  } else {
    for_each_work<kInterleave>(s, cta, ctas, f);
  }
}

}  // namespace mxgemm::sm90
