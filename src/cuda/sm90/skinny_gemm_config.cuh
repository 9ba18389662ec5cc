// Constants of the sm_90a skinny MXFP8 GEMM (skinny_gemm_kernel.cuh; docs/skinny-kernel.md
// explains the choices).
#pragma once

#include "cuda/sm90/skinny_schedule.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// kElemW: the weight's fp8 type. kElemX: the activation's: E4M3/E5M2 (MXFP8 activations,
// multiplied as exact fp16 codes with one fresh accumulator per 32-wide scale block) or BF16
// (weight-only: the weight dequantized to bf16 values, accumulated across K). kNTiles:
// 8-row activation tiles (the N of mma.sync m16n8k16). kPrepackedW (values form): the weight in
// KOrder::Prepacked, its 8 bytes of a block a thread's elements 2q + {0, 1, 8, 9, 16, 17, 24, 25},
// which the thread loads from the activation as four 4-byte words instead of one 16-byte load.
template <DType kElemW_, DType kElemX_, int kNTiles_, bool kPrepackedW_ = false>
struct SkinnyGemmConfig {
  static constexpr DType kElemW = kElemW_;
  static constexpr DType kElemX = kElemX_;
  static constexpr bool kValues = kElemX == DType::BF16;
  static constexpr bool kPrepackedW = kPrepackedW_;
  static constexpr int kNTiles = kNTiles_;
  static constexpr int kWarps = kSkinnyWarps;  // 16 rows of the CTA's 128 each
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kAccRegs = 4 * kNTiles;  // fp32 accumulator per thread per n-tile: 4
  static constexpr int kGroupBlocks = kSkinnyGroupBlocks;
  // Where the activation comes from. Codes form with two tiles (9..16 rows): each warp's
  // stage also holds the unit's 16 activation rows (a second TMA box, rows past M and bytes
  // past K zero, the weight's 128-byte swizzle) and their scale words; registers could not
  // hold a unit of them ahead. Values form on a prepacked weight with one tile (up to 8
  // rows): the stage holds the unit's 8 bf16 rows (two 128-byte-wide boxes), whose B
  // fragments one ldmatrix.x4 a block reads in the prepacked order (from registers that
  // order took four 4-byte loads a block, 3-14% slower than the natural order on the 8-16 MB
  // weights, session 72). Otherwise each lane loads its own activation elements into
  // registers a unit ahead, through the L1 its CTA's warps share. Measured both ways on the
  // H200 (docs/skinny-kernel.md): the stage is faster for 16 rows and the short layers, the
  // registers for up to 8 on the large layers (which this form does not run: weight-only
  // sends those to the streaming kernel).
  static constexpr bool kXInSmem = (!kValues && kNTiles == 2) || (kPrepackedW && kNTiles == 1);
  static constexpr int kXBoxRows = kValues ? 8 : 16;  // activation rows of a stage
  static constexpr int kXStageBytes = kXInSmem ? kXBoxRows * 128 * (kValues ? 2 : 1) : 16;  // 16: a placeholder
  static constexpr int kSxWords = kXInSmem && !kValues ? 16 : 4;
  // Rows of the activation's TMA box for m activation rows: the codes form's whole box (rows
  // past M read as zero), the values form's M rows if fewer (TMA's zero fill of rows past M
  // measured slow: 1..3 rows on 4096^2 9-12% slower, H100, session 73; the rows left stale
  // meet only output columns past M, which nothing stores); and the bytes TMA writes a stage.
  __host__ __device__ static constexpr int x_box_rows(int m) { return kValues && m < kXBoxRows ? m : kXBoxRows; }
  __host__ __device__ static constexpr int x_stage_tx(int m) {
    return kXInSmem ? kXStageBytes / kXBoxRows * x_box_rows(m) : 0;
  }
  // Stages of each warp's ring: kStages - 1 units (2 KB of weight each) in flight per warp
  // while it multiplies one, as many as two CTAs per SM (16 warps) hold with the
  // activation's boxes: 64 or 128 KB of HBM reads in flight per SM.
  static constexpr int kStages = kXInSmem ? 3 : 5;
  static constexpr int kMinCtasPerSm = 2;
  // Per warp and stage: 16 rows x 128 bytes of weight, the activation's box, the scale words,
  // one barrier; and 1 KB of slack to align the 128-byte swizzle.
  static constexpr int kSmemBytes =
      (kWarps * kStages * (16 * 128 + kXStageBytes + 16 * 4 + kSxWords * 4 + 8) + 1023) / 1024 * 1024 + 1024;
  // The fixup reads this many partials per L2 round trip, as many as the registers left
  // beside the mainloop's hold (the two-tile forms spill with more).
  static constexpr int kFixupBatch = kNTiles == 1 ? 4 : 1;

  static_assert(kElemW == DType::E4M3 || kElemW == DType::E5M2, "the weight is fp8");
  static_assert(kElemX == DType::E4M3 || kElemX == DType::E5M2 || kElemX == DType::BF16,
                "the activation is fp8 codes or bf16 values");
  static_assert(kSkinnyTileRows == 16, "a warp tile is the M of mma.sync m16n8k16");
  static_assert(kGroupBlocks == 4, "a group's scales of one row are one 32-bit swizzled word");
  static_assert(kStages >= 2, "a ring needs a stage in flight");
  static_assert(kNTiles == 1 || kNTiles == 2, "built for up to 16 activation rows");
  static_assert(!kPrepackedW || kValues, "a prepacked weight meets BF16 activations only");
  static_assert(!kXInSmem || kXStageBytes % 1024 == 0, "activation boxes keep the 1 KB alignment of the swizzle");
  static_assert(!kXInSmem || 8 * kNTiles <= kXBoxRows, "a stage holds every activation row");
  static_assert(!(kXInSmem && kValues) || kPrepackedW, "the values form's stage boxes serve the prepacked order");
  static_assert(kMinCtasPerSm * kSmemBytes <= 227 * 1024, "shared memory for kMinCtasPerSm CTAs per SM");
};

}  // namespace mxgemm::sm90
