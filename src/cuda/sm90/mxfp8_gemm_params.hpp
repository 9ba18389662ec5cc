// Kernel parameters of the sm_90a MXFP8 GEMM, filled by the launcher.
#pragma once

#include <cstdint>

#include "core/kernel_override.hpp"  // detail::StreamEarlyFixup
#include "cuda/sm90/scale_prepass.hpp"
#include "cuda/sm90/skinny_schedule.hpp"
#include "cuda/sm90/stream_schedule.hpp"
#include "mxgemm/layout.hpp"  // scale_cols
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Where one operand's E8M0 scales are and how to index them.
struct ScaleSource {
  const std::uint8_t* data;
  std::int64_t row_stride;  // Linear layout: bytes between rows
  bool swizzled;            // Swizzled128x4 (else Linear)
};

// One operand of the exact path (exact_outputs.cuh), as the caller passed it.
struct ExactOperand {
  const void* data;
  std::int64_t stride;  // elements between rows
  DType dtype;          // E4M3 / E5M2 (times `scales`), or BF16 / FP16 (weight-only activation)
  ScaleSource scales;   // fp8 operands only
  int rows;             // rows of the whole operand (0 for unscaled operands)
  bool prepacked;       // fp8 elements in KOrder::Prepacked (a weight-only weight)
};

// What the exact path needs to recompute any output of a launch: the activation X (rows
// x_row0 + m of x for the launch's row m) and the weight W.
struct ExactGemm {
  ExactOperand x, w;
  int x_row0;
  int k, blocks;  // blocks: ceil(K / 32)
};

// An operand as the exact path reads it: as the caller passed it.
inline ExactOperand exact_operand(const ConstMxOperand& op) {
  return {op.data.data, op.data.row_stride, op.data.dtype,
          {static_cast<const std::uint8_t*>(op.scales.data), op.scales.row_stride,
           op.layout == ScaleLayout::Swizzled128x4},
          static_cast<int>(op.data.rows), op.order == KOrder::Prepacked};
}
inline ExactOperand exact_operand(const ConstMatrixView& op) {
  return {op.data, op.row_stride, op.dtype, {nullptr, 0, false}, 0, false};
}
inline ExactGemm exact_gemm(const ExactOperand& x, const ExactOperand& w, int x_row0, int k) {
  return {x, w, x_row0, k, static_cast<int>(scale_cols(k))};
}

// A stream-K part that needs the exact path adds this to its tile's arrival counter (on
// top of the arrival's 1), so the storing CTA or warp learns it from the count.
constexpr unsigned int kExactArrival = 1u << 16;

struct Mxfp8GemmParams {
  int m, n, k;
  int scale_cols;     // ceil(K / 32)
  int tiles_m, tiles_n, k_stages;
  ChunkedScales sa, sb;
  const float* alpha;  // device
  void* d;
  std::int64_t ldd;    // elements
  DType d_dtype;
};

// Where the kernels that store D^T transposed (stream_epilogue.cuh: the streaming and skinny
// kernels) write D = alpha * (...) (+ bias row).
struct TransposedOutput {
  const float* alpha;  // device
  void* d;
  std::int64_t ldd;  // elements
  DType d_dtype;
  const void* bias;  // null, or N values of bias_dtype added to every row (weight-only)
  DType bias_dtype;
};

// The weight-streaming kernel (stream_gemm_kernel.cuh): D = alpha * X W^T with X the
// activation rows (bf16, or fp16 codes with fp32 block scales) and W the MXFP8 weight (the
// API's operand b).
struct StreamGemmParams {
  int m, n, k;
  int scale_cols;  // ceil(K / 32)
  StreamSchedule sched;
  ChunkedScales sw;
  TransposedOutput out;
  // What the fast path's sums are multiplied by before alpha: 1, or 2^-kF16WeightShift for the
  // fp16 values form of an FP16 activation, whose weight carries 2^kF16WeightShift
  // (scale_window.cuh).
  float alpha_scale;
  // The fp16 values form of an MXFP8 activation (stream_gemm_kernel.cuh): the sums of launch
  // row m are multiplied by x_row_scale[m], a power of two written by the pre-pass, before
  // alpha (activation_prepass.cu has what it undoes); null in every other form.
  const float* x_row_scale;
  float* partials;               // 2 * sched.ctas slots of kBlockN * kMPad fp32
  // 256-row tiles (StreamGemmConfig::kPromoteInGlobal): each CTA's slot of kBlockN * kMPad fp32
  // for the promoted sum, and the sub-stages between promotions (a chain of K the output type's
  // bars hold for; 0: never), and how many promotion times the CTAs are spread over
  // (first_promotion_sub_stage in stream_schedule.hpp; 1: all at once).
  float* promoted;
  int promote_stages;
  int promote_groups;
  unsigned int* tile_counters;   // sched.stream_tiles(), zero between launches (null when split_reduce)
  // sched.split_reduce: stream-K tile t needs the exact path when tile_exact[t] holds
  // exact_generation (written by the CTAs of the tile, read by the reduction kernel).
  unsigned int* tile_exact;
  int* exact_tiles;              // per CTA, the tiles it stores through the exact path:
  int exact_tiles_per_cta;       // sched.max_items_per_cta() slots
  // Activation rows whose MXFP8 blocks need the exact path hold `exact_generation` here
  // (written by the pre-pass; null when the activation is BF16): a value unique to the
  // launch, so that the workspace needs no clearing (tile_exact uses it too).
  const unsigned int* x_exact_rows;
  unsigned int exact_generation;
  ExactGemm exact;
  // The activation is the caller's, read in place (weight-only): no pre-pass of this launch
  // writes it, so its loads need not wait behind the weight's first stages.
  bool x_in_place;
  // Rows of the activation's TMA box (kMPad, or M for an activation of one tile of fewer rows,
  // so that no box reaches past M); a ring stage's expected bytes count them. The tile's
  // shared-memory rows past them keep what they held: only D's columns past M read them.
  int x_box_rows;
  // The early fixup of a tile in two parts (stream_gemm_kernel.cuh): Auto (the library's), or
  // Never / Always for tests.
  detail::StreamEarlyFixup early_fixup;
  // The staged store hands its rows to TMA (store_staged_tma) through d_map: D as bytes, M rows
  // of 2 N, boxes of 32 rows x 128 bytes, 128B-swizzled. Only where the staged store runs.
  bool d_by_tma;
  CUtensorMap d_map;
};

// The skinny kernel (skinny_gemm_kernel.cuh): D = alpha * X W^T for a few activation rows,
// both operands read straight from global memory.
struct SkinnyGemmParams {
  int m, n, k;
  int kblocks;  // ceil(K / 32)
  SkinnySchedule sched;
  const std::uint8_t* sw;  // the weight's scales (the weight: a tensor map), swizzled, 16-byte aligned
  const void* x;           // M x K: fp8 codes (scales sx) or bf16 values (weight-only)
  std::int64_t ldx;        // elements
  const std::uint8_t* sx;  // fp8 activations: their scales, as sw
  TransposedOutput out;
  float* partials;              // 2 * sched.ctas * 8 warps slots of 32 lanes x (4 * n-tiles) fp32
  unsigned int* tile_counters;  // sched.tiles * 8 (one per warp tile), zero between launches
  int* exact_tiles;             // per CTA and warp, the tiles it stores through the exact path:
  int exact_tiles_per_warp;     // sched.max_tiles_per_cta() slots
  ExactGemm exact;
};

}  // namespace mxgemm::sm90
