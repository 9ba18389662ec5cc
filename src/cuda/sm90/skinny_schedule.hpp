// Work split of the skinny kernel (skinny_gemm_kernel.cuh), shared by the launcher, the kernel
// and the CPU tests.
//
// A CTA's 8 warps each stream 16 of a tile's 128 weight rows, all at the same K position, so
// that they share the activation in L1. The unit of work is one tile times one group of
// kSkinnyGroupBlocks scale blocks (128 K); the units in tile-major order are cut into one
// contiguous range per CTA, of equal length (+-1), so every SM moves the same number of bytes
// whatever N and K are (stream-K). A tile whose groups fall into several ranges is summed from
// the partials of those CTAs (per warp), always in CTA order, by the last of them to finish,
// so results do not depend on timing.
#pragma once

#include <algorithm>
#include <cstdint>

#include "mxgemm/layout.hpp"  // MXGEMM_HOST_DEVICE, ceil_div

namespace mxgemm::sm90 {

// Weight rows of a warp tile (the M of mma.sync m16n8k16) and of a CTA tile (8 warps).
constexpr int kSkinnyTileRows = 16;
constexpr int kSkinnyWarps = 8;
constexpr int kSkinnyBlockN = kSkinnyTileRows * kSkinnyWarps;
// Scale blocks per unit: their 4 scale bytes of a row are one 32-bit word in the swizzled
// layout, and one TMA box of 128 bytes per row.
constexpr int kSkinnyGroupBlocks = 4;
// Short work spreads over the SMs first, one CTA each, of at least kSkinnySpreadUnits units
// (a warp's units run one after another, each a chain of dependent instructions: more SMs
// shorten the chain); more work packs up to ctas_per_sm CTAs on every SM, of at least
// kSkinnyPackUnits units. Measured on the H200 (docs/skinny-kernel.md): 1 x 1024 x 8192
// 12.9 us with 64 CTAs, 12.4 with 128; 1 x 4096 x 4096 14.4 us with 128, 15.6 with 256.
constexpr int kSkinnySpreadUnits = 4;
constexpr int kSkinnyPackUnits = 8;

struct SkinnySchedule {
  int tiles;    // ceil(N / kSkinnyBlockN)
  int groups;   // units per tile: ceil(ceil(K / 32) / 4)
  int ctas;
  int units;    // tiles * groups (below 2^31: the launcher checks)
  int per_cta;  // units / ctas (>= 1): the first `extra` CTAs take one unit more
  int extra;    // units % ctas

  // The device side needs no division but the one in cta_of_unit (32-bit, by a kernel
  // constant); 64-bit divisions are calls of a few hundred instructions, a fixed cost the size
  // of several units of streaming when they sit in every warp's prologue and fixup.

  // First unit of CTA c (c == ctas gives the end of the last range).
  MXGEMM_HOST_DEVICE int begin(int c) const { return c * per_cta + (c < extra ? c : extra); }
  // The CTA whose range holds unit u: the largest c with begin(c) <= u.
  MXGEMM_HOST_DEVICE int cta_of_unit(int u) const {
    const int long_units = extra * (per_cta + 1);  // <= units: the first `extra` ranges
    return u < long_units ? u / (per_cta + 1) : extra + (u - long_units) / per_cta;
  }
  MXGEMM_HOST_DEVICE int first_cta(int tile) const { return cta_of_unit(tile * groups); }
  MXGEMM_HOST_DEVICE int last_cta(int tile) const { return cta_of_unit((tile + 1) * groups - 1); }
  // Each CTA has at most two partial tiles, the first and the last it touches: the slot of
  // CTA c's partial of `tile` (times kSkinnyWarps, one per warp, in the partials buffer). The
  // first is the tile c's range begins in, i.e. one that does not begin before it.
  MXGEMM_HOST_DEVICE int partial_slot(int c, int tile) const {
    return 2 * c + (begin(c) >= tile * groups ? 0 : 1);
  }

  // The most tiles one CTA's range touches.
  MXGEMM_HOST_DEVICE int max_tiles_per_cta() const { return (per_cta + 1 + groups - 1) / groups + 1; }

  // As many CTAs as fit the machine at once (`ctas_per_sm` resident per SM), fewer when the
  // work is short (kSkinnySpreadUnits, kSkinnyPackUnits).
  static SkinnySchedule make(std::int64_t n, std::int64_t kblocks, int sms, int ctas_per_sm) {
    SkinnySchedule s{};
    s.tiles = static_cast<int>(ceil_div(n, kSkinnyBlockN));
    s.groups = static_cast<int>(ceil_div(kblocks, kSkinnyGroupBlocks));
    s.units = s.tiles * s.groups;
    const std::int64_t fit = std::int64_t{sms} * ctas_per_sm;
    const std::int64_t spread = std::min<std::int64_t>(sms, s.units / kSkinnySpreadUnits);
    const std::int64_t by_work = std::max<std::int64_t>(spread, s.units / kSkinnyPackUnits);
    const std::int64_t ctas = by_work < fit ? by_work : fit;
    s.ctas = static_cast<int>(ctas < 1 ? 1 : ctas);
    s.per_cta = s.units / s.ctas;
    s.extra = s.units % s.ctas;
    return s;
  }
};

}  // namespace mxgemm::sm90
