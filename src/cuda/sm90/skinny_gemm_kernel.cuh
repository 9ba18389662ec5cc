// sm_90a skinny MXFP8 GEMM: up to 16 activation rows (decode), the weight streamed once
// straight from global memory into mma.sync fragments.
//
// For a few activation rows the GEMM is a stream over the weight W (N x K fp8, the API's
// operand b); what limits it is keeping enough bytes in flight on every SM, not arithmetic.
// The kernel computes D^T = W x X^T, a warp at a time on 16 weight rows: per unit of 128 K,
// lane 0 TMA-loads the rows' 16 x 128 bytes into a stage of the warp's own ring (128-byte
// swizzle, kStages deep, an mbarrier per stage) and lanes 0..15 copy the rows' scale words
// (cp.async), so several units of HBM reads are in flight per warp without holding
// registers. The activation, which every warp reads and L2 holds, is loaded into registers a
// unit ahead (up to 8 rows), or rides in the stage as TMA boxes, with its scale words in the
// codes form (9..16 MXFP8 rows; up to 8 BF16 rows on a prepacked weight; skinny_gemm_config.cuh:
// kXInSmem). No CTA-wide barrier anywhere: each warp
// waits for its own loads only (a CTA-wide activation ring, refilled once every warp was
// done with a slot, measured slower). TMA, not per-thread copies: those stalled near 2.3 TB/s
// however deep the ring (likely the SM's limit on outstanding loads; docs/skinny-kernel.md).
//
// The hot loop is instruction-bound, not bandwidth-bound (ncu: warps mostly wait on their own
// dependent instructions, not on data), so it is kept lean: shared-memory addresses computed
// once, fp8 pairs converted straight from either half of a register (F2FP on R.H1), the four
// blocks of a unit one straight run of code when no scale needs a special case, and no
// division in the schedule. The K permutation of mainloop.cuh (physical byte 8q + 4h + 2i + j
// of a block is logical k = 16h + 8i + 2q + j) makes 8 consecutive bytes of a row exactly a
// thread's slots of the block's two m16n8k16 A fragments, and the activation's 8 elements at
// the same positions its B fragments, so nothing is shuffled; the swizzle keeps those 8-byte
// reads free of bank conflicts.
//
// Two forms (skinny_gemm_config.cuh: kElemX):
//   codes   MXFP8 activation: both operands enter an fp16 mma as their exact fp16 codes (one
//           cvt a pair), each block in a fresh accumulator, added into the fp32 result times
//           the product of the two block scales (FMUL + FFMA), as the streaming kernel does.
//   values  BF16 activation (weight-only): the weight dequantized exactly to bf16 (code x
//           scale, fp8_convert.cuh), bf16 mma accumulated over a group of 4 blocks, then
//           added into the result.
//
// Work split (skinny_schedule.hpp): every CTA streams one contiguous range of (128-row tile,
// 128-K group) units, all of the same length; its 8 warps each take 16 of the rows through
// their own pipelines, at the same K (they share the activation in L1). A tile cut among
// several CTAs is summed from their partials (workspace, per warp) in CTA order by the last
// to finish (one atomic counter per warp tile), so runs are bitwise identical.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/fp8_convert.cuh"
#include "cuda/common/ptx.cuh"
#include "cuda/sm90/exact_outputs.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/scale_window.cuh"
#include "cuda/sm90/skinny_gemm_config.cuh"
#include "cuda/sm90/skinny_trace.cuh"
#include "cuda/sm90/stream_epilogue.cuh"

namespace mxgemm::sm90 {

// 2^(s-127) for byte b of `word`: the byte moved into the fp32 exponent field when kPlain
// (every byte inside the exact window, scale_window.cuh), else e8m0_to_float.
template <bool kPlain>
__device__ __forceinline__ float scale_float(std::uint32_t word, int b) {
  if constexpr (kPlain) return __uint_as_float(((b >= 3 ? word >> (8 * b - 23) : word << (23 - 8 * b))) & 0x7F800000u);
  return cuda::e8m0_to_float((word >> (8 * b)) & 0xFFu);
}

// Shared memory of a CTA: per warp and stage, its 16 weight rows' 128 bytes of one group as
// TMA writes them with the 128-byte swizzle (16-byte chunk c of row r at chunk position
// c ^ (r % 8)), the rows' scale words of the group (block 4 group + b in byte b), and the
// barrier the TMA load completes on.
// With kXInSmem the stage also holds the unit's activation boxes and (codes form) the scale words of the
// activation rows (skinny_gemm_config.cuh).
template <typename Cfg>
struct alignas(1024) SkinnySmem {
  std::uint8_t w[Cfg::kWarps][Cfg::kStages][16 * 128];
  std::uint8_t x[Cfg::kWarps][Cfg::kStages][Cfg::kXStageBytes];
  std::uint32_t sw[Cfg::kWarps][Cfg::kStages][16];
  std::uint32_t sx[Cfg::kWarps][Cfg::kStages][Cfg::kSxWords];
  std::uint64_t full[Cfg::kWarps][Cfg::kStages];
  int exact_count[Cfg::kWarps];  // tiles the warp stores through the exact path (lane 0's count)
};

// The activation operands of one thread for one group when loaded into registers (not
// kXInSmem), a unit ahead: rows 8t + lane / 4, 8 elements per block from physical K offset
// 8 (lane % 4); in the codes form the scale words of activation rows 8t + 2 (lane % 4) + e.
template <typename Cfg>
struct SkinnyActivation {
  using Vec = std::conditional_t<Cfg::kValues, uint4, uint2>;  // 8 bf16 values or 8 fp8 codes
  Vec x[Cfg::kNTiles][Cfg::kGroupBlocks];
  std::uint32_t sx[Cfg::kNTiles][2];
};

template <DType kElemW, DType kElemX, int kNTiles, bool kPrepackedW = false>
__global__ void __launch_bounds__(SkinnyGemmConfig<kElemW, kElemX, kNTiles, kPrepackedW>::kThreads,
                                  SkinnyGemmConfig<kElemW, kElemX, kNTiles, kPrepackedW>::kMinCtasPerSm)
    skinny_gemm_sm90_kernel(const __grid_constant__ CUtensorMap tma_w, const __grid_constant__ CUtensorMap tma_x,
                            const __grid_constant__ SkinnyGemmParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  using Cfg = SkinnyGemmConfig<kElemW, kElemX, kNTiles, kPrepackedW>;
  using Activation = SkinnyActivation<Cfg>;
  using Smem = SkinnySmem<Cfg>;
  static_assert(sizeof(Smem) + 1023 <= Cfg::kSmemBytes, "the smem layout plus alignment slack");
  constexpr int kG = Cfg::kGroupBlocks;
  extern __shared__ std::uint8_t skinny_smem[];
  auto& smem = ptx::aligned_dynamic_smem<Smem>(skinny_smem);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
  // This warp's ring as shared-memory addresses, computed once (stage s: + s * the stride):
  // the weight and activation boxes, the scale words and the barriers.
  constexpr std::uint32_t kWStage = sizeof(smem.w[0][0]), kXStage = sizeof(smem.x[0][0]);
  constexpr std::uint32_t kSwStage = sizeof(smem.sw[0][0]), kSxStage = sizeof(smem.sx[0][0]);
  const std::uint32_t w_smem = ptx::smem_addr(smem.w[warp][0]);
  const std::uint32_t x_smem = ptx::smem_addr(smem.x[warp][0]);
  const std::uint32_t sw_smem = ptx::smem_addr(&smem.sw[warp][0][0]);
  const std::uint32_t sx_smem = ptx::smem_addr(&smem.sx[warp][0][0]);
  const std::uint32_t bar_smem = ptx::smem_addr(&smem.full[warp][0]);
  const SkinnySchedule& sched = p.sched;
  const int kblocks = p.kblocks;
  const int cta = static_cast<int>(blockIdx.x);
  const int u0 = sched.begin(cta), u1 = sched.begin(cta + 1);
#if MXGEMM_TRACE_ON
  // Each CTA clears its own row (before any warp's end stamps: those come microseconds later).
  if (threadIdx.x == 0) {
    for (int e = 0; e < kTraceEvents; ++e) MXGEMM_TRACE_SET(e, 0ull);
    MXGEMM_TRACE_SET(kTrStart, MXGEMM_TRACE_NOW());
    MXGEMM_TRACE_SET(kSkTrSmid, trace_smid());
    MXGEMM_TRACE_SET(kSkTrWarpEndMin, ~0ull);
    MXGEMM_TRACE_SET(kTrStages, static_cast<unsigned long long>(u1 - u0));
  }
  const bool trace_lead = threadIdx.x == 0;  // warp 0, lane 0 stamps the per-CTA events
  int trace_segments = 0;
#endif

  // The next unit to load: tile and group, advanced without divisions, and this lane's scale
  // row base (row tile * 128 + 16 warp + lane, for lanes 0..15).
  struct Cursor {
    int tile, group;
    const std::uint8_t* scale_row;
  };
  // This warp's first weight row in tile `tile`.
  auto warp_row0 = [&](int tile) { return tile * kSkinnyBlockN + warp * kSkinnyTileRows; };
  auto scale_row_of = [&](int tile) {
    return p.sw + swizzled_scale_offset(warp_row0(tile) + (lane & 15), 0, p.kblocks);
  };
  auto advance = [&](Cursor& c) {
    if (++c.group == sched.groups) {
      c.group = 0;
      c.scale_row = scale_row_of(++c.tile);
    }
  };

  // Lane 0 TMA-loads the 16 x 128-byte box of a unit (rows past N and bytes past K read as
  // zero) and, with kXInSmem, the activation's box of the same group (tma_x); lanes 0..15
  // copy the weight rows' scale words, lanes 16.. those of the activation rows (the swizzled
  // scales are padded to whole 128-row tiles: always in bounds).
  if (lane == 0) {
    ptx::prefetch_tensor_map(&tma_w);
    if constexpr (Cfg::kXInSmem) ptx::prefetch_tensor_map(&tma_x);
    for (int s = 0; s < Cfg::kStages; ++s) ptx::mbarrier_init(&smem.full[warp][s], 1);
    ptx::fence_barrier_init();
    smem.exact_count[warp] = 0;
  }
  __syncwarp();
  const std::uint8_t* sx_lane = Cfg::kXInSmem && !Cfg::kValues && lane >= kSkinnyTileRows && lane - kSkinnyTileRows < Cfg::kSxWords
                                    ? p.sx + swizzled_scale_offset(lane - kSkinnyTileRows, 0, p.kblocks)
                                    : nullptr;
  // The weight is read once (up to 16 activation rows: one tile): an L2 evict_first policy
  // lets its lines leave first, keeping the activation, the scales and the partials in L2. On
  // the H200 (session 19, same run, decode suite, bench/results/s19/b5) 1 x 28672 x 8192 69.8
  // -> 66.7 us, 1 x 8192^2 29.2 -> 27.9. (Only the second 128-byte unit of each 256-byte line
  // evict_first: no gain.)
  const std::uint64_t w_policy = ptx::l2_policy_evict_first();
  const std::uint32_t x_stage_tx = static_cast<std::uint32_t>(Cfg::x_stage_tx(p.m));  // activation bytes a stage
  auto issue_unit = [&](const Cursor& c, int stage) {
    if (lane == 0) {
      ptx::mbarrier_arrive_expect_tx(bar_smem + 8 * stage, kSkinnyTileRows * 128 + x_stage_tx);
      ptx::tma_load_2d(w_smem + kWStage * stage, &tma_w, bar_smem + 8 * stage, c.group * 128, warp_row0(c.tile),
                       w_policy);
      if constexpr (Cfg::kXInSmem) {
        // The unit's activation bytes: 128 of each row (codes) or 256 as two boxes (values).
        constexpr int kBoxes = Cfg::kXStageBytes / (Cfg::kXBoxRows * 128);
#pragma unroll
        for (int x = 0; x < kBoxes; ++x)
          ptx::tma_load_2d(x_smem + kXStage * stage + Cfg::kXBoxRows * 128 * x, &tma_x, bar_smem + 8 * stage,
                           (c.group * kBoxes + x) * 128, 0);
      }
    }
    if (lane < kSkinnyTileRows)
      cuda::cp_async_4(sw_smem + kSwStage * stage + 4 * lane, c.scale_row + c.group * kSwizzleTileBytes);
    else if (sx_lane != nullptr)
      cuda::cp_async_4(sx_smem + kSxStage * stage + 4 * (lane - kSkinnyTileRows), sx_lane + c.group * kSwizzleTileBytes);
  };

  // Not kXInSmem: activation row 8t + g at this lane's 8 elements of block 0 (row 0 past M,
  // with a K limit of 0: nothing is loaded), and the scale rows of activation rows 8t + 2q + e.
  // The lane's elements of a block: 8q .. 8q + 7 (they meet the weight's bytes 8q .. 8q + 7), or
  // with a prepacked weight the ones those bytes hold, 2q + {0, 1} + 8 {0, 1, 2, 3}.
  constexpr int kXBytes = Cfg::kValues ? 2 : 1;
  constexpr int kXFirst = Cfg::kPrepackedW ? 2 : 8;  // x q: the lane's first element of a block
  static_assert(prepacked_element(8) == 2 && prepacked_element(2) == 8 && prepacked_element(4) == 16,
                "the prepacked map of layout.hpp: lane q's bytes hold elements 2q + 8 {0, 1, 2, 3} (+ 0, 1)");
  const std::uint8_t* x_row[kNTiles];
  int x_limit[kNTiles];
  const std::uint8_t* sx_row[kNTiles][2];  // null past M (scale 1)
#pragma unroll
  for (int t = 0; t < kNTiles; ++t) {
    const int m = 8 * t + g;
    x_row[t] = static_cast<const std::uint8_t*>(p.x) + (static_cast<std::int64_t>(m < p.m ? m : 0) * p.ldx + kXFirst * q) * kXBytes;
    x_limit[t] = m < p.m ? p.k - kXFirst * q : 0;
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int ms = 8 * t + 2 * q + e;
      sx_row[t][e] = !Cfg::kValues && ms < p.m ? p.sx + swizzled_scale_offset(ms, 0, p.kblocks) : nullptr;
    }
  }
  [[maybe_unused]] auto load_activation = [&](int group, Activation& op) {
    const int kb = group * kG;
#pragma unroll
    for (int t = 0; t < kNTiles; ++t) {
      const std::uint8_t* src = x_row[t] + kb * 32 * kXBytes;
#pragma unroll
      for (int b = 0; b < kG; ++b) {
        const bool valid = (kb + b) * 32 < x_limit[t];
        if constexpr (Cfg::kPrepackedW) {
          const auto* words = reinterpret_cast<const unsigned int*>(src + b * 64);  // 8 elements apart: 4 words
          op.x[t][b] = valid ? make_uint4(__ldg(words), __ldg(words + 4), __ldg(words + 8), __ldg(words + 12))
                             : make_uint4(0, 0, 0, 0);
        } else if constexpr (Cfg::kValues)
          op.x[t][b] = valid ? __ldg(reinterpret_cast<const uint4*>(src + b * 64)) : make_uint4(0, 0, 0, 0);
        else
          op.x[t][b] = valid ? __ldg(reinterpret_cast<const uint2*>(src + b * 32)) : make_uint2(0, 0);
      }
    }
    if constexpr (!Cfg::kValues) {
#pragma unroll
      for (int t = 0; t < kNTiles; ++t)
#pragma unroll
        for (int e = 0; e < 2; ++e)
          op.sx[t][e] = sx_row[t][e] != nullptr
                            ? __ldg(reinterpret_cast<const unsigned int*>(sx_row[t][e] + group * kSwizzleTileBytes))
                            : 0x7F7F7F7Fu;
    }
  };
  // kXInSmem: whether activation rows 8t + 2q + e exist (past M the scale word copied is
  // padding, replaced by scale 1 so that it never takes the general path).
  bool sx_valid[kNTiles][2];
#pragma unroll
  for (int t = 0; t < kNTiles; ++t)
#pragma unroll
    for (int e = 0; e < 2; ++e) sx_valid[t][e] = 8 * t + 2 * q + e < p.m;

  float result[Cfg::kAccRegs];
#pragma unroll
  for (int i = 0; i < Cfg::kAccRegs; ++i) result[i] = 0.0f;
  bool exact = false;  // this lane saw a block of the tile that needs the exact path

  // Block b's 8 bytes of row g inside a 128-byte-swizzled box (row g + 8: 1024 further):
  // logical chunk 2b + q / 2, stored at chunk position (2b + q / 2) ^ g, half q % 2. The same
  // offsets serve the weight's A fragments and the codes form's activation B fragments.
  // (kXInSmem: the activation box holds row 8t + g at the same offsets, + 1024 t.)
  std::uint32_t frag_at[kG];
#pragma unroll
  for (int b = 0; b < kG; ++b) frag_at[b] = g * 128 + 16 * ((2 * b + (q >> 1)) ^ g) + 8 * (q & 1);
  // Values form, kXInSmem: this lane's row address for ldmatrix.x4 of block b, whose matrix i
  // is elements 8i .. 8i + 7 of the block (box b / 2, 16-byte chunk 4 (b % 2) + i of row r):
  // lane 4g + q then holds elements 2q + 8i (+ 0, 1) of row g in word i, the prepacked order.
  [[maybe_unused]] std::uint32_t xfrag_at[kG];
#pragma unroll
  for (int b = 0; b < kG; ++b) {
    const int r = lane & 7, i = lane >> 3;
    xfrag_at[b] = 1024 * (b / 2) + r * 128 + 16 * ((4 * (b % 2) + i) ^ r);
  }

  // Block b of the group, k16 step s: the A fragment from the two weight rows' words s.
  // kPlain: the codes form's scales of the group need no special case (has_special_scale).
  // sw: the scale words of weight rows g and g + 8.
  // sx (codes form): the scale words of activation rows 8t + 2q + e; op: the activation's
  // registers (not kXInSmem), x_stage: its box (kXInSmem).
  auto multiply_group = [&](auto plain_tag, int stage, [[maybe_unused]] std::uint32_t x_stage, const std::uint32_t (&sw)[2],
                            [[maybe_unused]] const std::uint32_t (&sx)[Cfg::kNTiles][2], [[maybe_unused]] const Activation& op,
                            int kb) {
    [[maybe_unused]] constexpr bool kPlain = decltype(plain_tag)::value;  // codes form only
    // Blocks past K hold zero codes (the TMA fill, load_activation): with finite scales (the
    // codes form's plain case) they add exactly 0 and need no test, which leaves the four
    // blocks one straight run of code to interleave. Otherwise a padding scale byte could be
    // NaN: stop at K.
    constexpr bool kStopAtK = Cfg::kValues || !kPlain;
    const std::uint32_t w_stage = w_smem + kWStage * stage;
    auto weight = [&](int b, int h) { return ptx::ld_shared_u32x2(w_stage + frag_at[b] + 1024 * h); };
    float part[kNTiles][4];
#pragma unroll
    for (int t = 0; t < kNTiles; ++t)
#pragma unroll
      for (int i = 0; i < 4; ++i) part[t][i] = 0.0f;
#pragma unroll
    for (int b = 0; b < kG; ++b) {
      if constexpr (kStopAtK)
        if (kb + b >= kblocks) break;  // the last group of a row may be short (warp-uniform)
      if constexpr (Cfg::kValues) {
        // Weight scale of block b as bf16 in both halves, per row.
        std::uint32_t s2[2];
#pragma unroll
        for (int h = 0; h < 2; ++h)
          s2[h] = cuda::bf16_lane_broadcast(cuda::e8m0_pair_to_bf16_lanes(sw[h] >> (16 * (b / 2))), b % 2);
        const uint2 wb[2] = {weight(b, 0), weight(b, 1)};
        uint4 xs[kNTiles];
#pragma unroll
        for (int t = 0; t < kNTiles; ++t)
          if constexpr (Cfg::kXInSmem) xs[t] = ptx::ldmatrix_x4(x_stage + xfrag_at[b]);
          else xs[t] = op.x[t][b];
#pragma unroll
        for (int s = 0; s < 2; ++s) {
          const std::uint32_t w0 = s == 0 ? wb[0].x : wb[0].y;
          const std::uint32_t w1 = s == 0 ? wb[1].x : wb[1].y;
          const std::uint32_t a[4] = {cuda::dequant_pair_bf16x2_mul<kElemW>(cuda::byte_pair(w0, 0), s2[0]),
                                      cuda::dequant_pair_bf16x2_mul<kElemW>(cuda::byte_pair(w1, 0), s2[1]),
                                      cuda::dequant_pair_bf16x2_mul<kElemW>(cuda::byte_pair(w0, 1), s2[0]),
                                      cuda::dequant_pair_bf16x2_mul<kElemW>(cuda::byte_pair(w1, 1), s2[1])};
#pragma unroll
          for (int t = 0; t < kNTiles; ++t) {
            const uint4& xv = xs[t];
            ptx::mma_m16n8k16<true>(part[t], a, s == 0 ? xv.x : xv.z, s == 0 ? xv.y : xv.w);
          }
        }
      } else {
        float block[kNTiles][4];
#pragma unroll
        for (int t = 0; t < kNTiles; ++t)
#pragma unroll
          for (int i = 0; i < 4; ++i) block[t][i] = 0.0f;
        const uint2 wb[2] = {weight(b, 0), weight(b, 1)};
        uint2 xb[kNTiles];
#pragma unroll
        for (int t = 0; t < kNTiles; ++t)
          if constexpr (Cfg::kXInSmem) xb[t] = ptx::ld_shared_u32x2(x_stage + frag_at[b] + 1024 * t);
          else xb[t] = op.x[t][b];
#pragma unroll
        for (int s = 0; s < 2; ++s) {
          const std::uint32_t w0 = s == 0 ? wb[0].x : wb[0].y;
          const std::uint32_t w1 = s == 0 ? wb[1].x : wb[1].y;
          const std::uint32_t a[4] = {cuda::fp8x2_to_f16x2_half<kElemW, 0>(w0), cuda::fp8x2_to_f16x2_half<kElemW, 0>(w1),
                                      cuda::fp8x2_to_f16x2_half<kElemW, 1>(w0), cuda::fp8x2_to_f16x2_half<kElemW, 1>(w1)};
#pragma unroll
          for (int t = 0; t < kNTiles; ++t) {
            const std::uint32_t xw = s == 0 ? xb[t].x : xb[t].y;
            ptx::mma_m16n8k16<false>(block[t], a, cuda::fp8x2_to_f16x2_half<kElemX, 0>(xw),
                                     cuda::fp8x2_to_f16x2_half<kElemX, 1>(xw));
          }
        }
        // result[4t + 2h + e] (weight row g + 8h, activation row 8t + 2q + e) gains the
        // block's partial times both block scales.
        const float fw[2] = {scale_float<kPlain>(sw[0], b), scale_float<kPlain>(sw[1], b)};
#pragma unroll
        for (int t = 0; t < kNTiles; ++t) {
          const float fx[2] = {scale_float<kPlain>(sx[t][0], b), scale_float<kPlain>(sx[t][1], b)};
#pragma unroll
          for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              float& r = result[4 * t + 2 * h + e];
              const float v = block[t][2 * h + e], s = fw[h] * fx[e];
              if constexpr (kPlain) {
                r = fmaf(v, s, r);
              } else if (s != s || (s >= 0x1p-90f && s <= 0x1p90f)) {
                r = fmaf(v, s, r);  // NaN scales propagate here
              } else {
                // Outside 2^+-90 the product of a block sum (2^-32..2^37 in magnitude) and the
                // scales can leave fp32's normal range: the exact path, unless the block is
                // zero (it adds nothing; 0 x inf would be NaN).
                exact |= v != 0.0f;
              }
            }
        }
      }
    }
    if constexpr (Cfg::kValues) {
#pragma unroll
      for (int t = 0; t < kNTiles; ++t)
#pragma unroll
        for (int i = 0; i < 4; ++i) result[4 * t + i] += part[t][i];
    }
  };

  const float alpha = __ldg(p.out.alpha);
  // The end of a tile's segment: a whole tile is stored; a part goes to this warp's partial
  // slot, and the last of the tile's warps to arrive (one counter per tile, reset by that
  // warp) adds the partials in warp order and stores the sum.
  // A tile that needs the exact path is listed for after the loop (lane 0 keeps the list;
  // exact_slot(i): slot i of this warp's list).
  auto exact_slot = [&](int i) -> int& {
    return p.exact_tiles[(static_cast<std::int64_t>(cta) * kSkinnyWarps + warp) * p.exact_tiles_per_warp + i];
  };
  auto list_exact = [&](int tile) {
    if (lane == 0) exact_slot(smem.exact_count[warp]++) = tile;
  };
  auto finish_tile = [&](int tile, bool whole) {
    const int n0 = warp_row0(tile);
    const bool exact_part = __any_sync(0xFFFFFFFFu, exact);
    if (whole) {
      if (exact_part) list_exact(tile);
      else store_tile_transposed(p, result, alpha, 0, n0, lane);
      return;
    }
    constexpr int kSlot = 32 * Cfg::kAccRegs;  // floats per partial
    auto slot = [&](int c) {
      return p.partials + (static_cast<std::int64_t>(sched.partial_slot(c, tile)) * kSkinnyWarps + warp) * kSlot;
    };
    float* mine = slot(cta);
#pragma unroll
    for (int r = 0; r < Cfg::kAccRegs; ++r) __stcg(mine + r * 32 + lane, result[r]);
    // The warp's partial is published by lane 0's release, the others' read after its acquire
    // (ptx::atomic_add_acq_rel_gpu): no fence for every lane.
    __syncwarp();
    const int c_lo = sched.first_cta(tile), c_hi = sched.last_cta(tile);
    unsigned int* counter = &p.tile_counters[tile * kSkinnyWarps + warp];
    // 0: not the last; 1: the last, which sums; 2: the last, and a part needs the exact path
    // (such parts count kExactArrival on top of their arrival).
    unsigned int last = 0;
    if (lane == 0) {
      const unsigned int before = ptx::atomic_add_acq_rel_gpu(counter, exact_part ? kExactArrival + 1u : 1u);
      if (before % kExactArrival == static_cast<unsigned int>(c_hi - c_lo)) {
        *counter = 0;  // ready for the next launch
        last = exact_part || before >= kExactArrival ? 2 : 1;
      }
    }
    last = __shfl_sync(0xFFFFFFFFu, last, 0);
    if (last != 1) {
      if (last == 2) list_exact(tile);
      return;
    }
    __syncwarp();
    float sum[Cfg::kAccRegs];
#pragma unroll
    for (int r = 0; r < Cfg::kAccRegs; ++r) sum[r] = 0.0f;
    for (int c0 = c_lo; c0 <= c_hi; c0 += Cfg::kFixupBatch) {
      float v[Cfg::kFixupBatch][Cfg::kAccRegs];
#pragma unroll
      for (int b = 0; b < Cfg::kFixupBatch; ++b) {
        if (c0 + b > c_hi) continue;
        const float* part = slot(c0 + b);
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; ++r) v[b][r] = __ldcg(part + r * 32 + lane);
      }
#pragma unroll
      for (int b = 0; b < Cfg::kFixupBatch; ++b) {
        if (c0 + b > c_hi) continue;
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; ++r) sum[r] += v[b][r];
      }
    }
    store_tile_transposed(p, sum, alpha, 0, n0, lane);
  };

  // kStages - 1 units of weight in flight ahead of the one multiplied; one commit per unit
  // (empty past the range) keeps the count wait_group relies on.
  Cursor issue{u0 / sched.groups, u0 % sched.groups, nullptr};
  issue.scale_row = scale_row_of(issue.tile);
  int use_tile = issue.tile, use_group = issue.group;  // the unit multiplied
  // The first activation loads go out ahead of the weight: behind the whole grid's first
  // weight units they waited for most of that flood (ncu, session 9: 18% of the warps'
  // stall samples at 1 x 8192 x 8192). (In the loop the same order was 1-3% slower at
  // K = 28672 on the H200.)
  [[maybe_unused]] Activation cur, next;
  if constexpr (!Cfg::kXInSmem) load_activation(use_group, cur);
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (u0 + s < u1) {
      issue_unit(issue, s);
      advance(issue);
    }
    cuda::cp_async_commit();
  }
  RingIndex<Cfg::kStages> st;    // the stage multiplied
  int refill = Cfg::kStages - 1;  // the stage refilled
  // One segment (the units of one tile) per outer step; the inner loop is the hot one, the
  // tile's store or fixup after it. The issue cursor runs kStages - 1 units ahead, across
  // segments.
  for (int u = u0; u < u1;) {
    const int tile = use_tile, first_group = use_group, segment_begin = u;
    const int segment_end = u + (sched.groups - first_group) < u1 ? u + (sched.groups - first_group) : u1;
#pragma unroll 1
    for (int group = first_group; u < segment_end; ++u, ++group) {
      if (u + Cfg::kStages - 1 < u1) {
        issue_unit(issue, refill);
        advance(issue);
      }
      cuda::cp_async_commit();
      if constexpr (!Cfg::kXInSmem)
        if (u + 1 < u1) load_activation(group + 1 == sched.groups ? 0 : group + 1, next);
      ptx::mbarrier_wait(bar_smem + 8 * st.index, st.phase);
#if MXGEMM_TRACE_ON
      if (trace_lead && u == u0) {
        MXGEMM_TRACE_SET(kTrFirstStage, MXGEMM_TRACE_NOW());
        MXGEMM_TRACE_SET(kTrClkFirst, clock64());
      }
#endif
      cuda::cp_async_wait<Cfg::kStages - 1>();
      __syncwarp();  // the other lanes' scale copies of this stage are visible
      const int stage = st.index;
      const std::uint32_t sw[2] = {ptx::ld_shared_u32(sw_smem + kSwStage * stage + 4 * g),
                                   ptx::ld_shared_u32(sw_smem + kSwStage * stage + 4 * (g + 8))};
      // Codes form: every scale byte this warp reads for the group inside the exact window
      // (scale_window.cuh), decoded by a shift; else the general decode, which finds the
      // blocks that need the exact path. Values form: a scale outside the window sends the
      // tile to the exact path when the block has a nonzero code.
      std::uint32_t sx[kNTiles][2] = {};
      bool plain = true;
      if constexpr (Cfg::kValues) {
        if (scales_outside_window<kElemW>(sw[0]) | scales_outside_window<kElemW>(sw[1])) {
#pragma unroll
          for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int b = 0; b < kG; ++b) {
              const uint2 codes = ptx::ld_shared_u32x2(w_smem + kWStage * stage + frag_at[b] + 1024 * h);
              exact |= needs_exact_path<kElemW>((sw[h] >> (8 * b)) & 0xFFu, code_magnitudes(codes.x | codes.y));
            }
        }
      } else {
        std::uint32_t special = scales_outside_window<kElemW>(sw[0]) | scales_outside_window<kElemW>(sw[1]);
#pragma unroll
        for (int t = 0; t < kNTiles; ++t)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            if constexpr (Cfg::kXInSmem) {
              const std::uint32_t word = ptx::ld_shared_u32(sx_smem + kSxStage * stage + 4 * (8 * t + 2 * q + e));
              sx[t][e] = sx_valid[t][e] ? word : 0x7F7F7F7Fu;
            } else {
              sx[t][e] = cur.sx[t][e];
            }
            special |= scales_outside_window<kElemX>(sx[t][e]);
          }
        plain = __all_sync(0xFFFFFFFFu, special == 0);
      }
      const std::uint32_t x_stage = x_smem + kXStage * stage;
      if (plain)
        multiply_group(std::true_type{}, stage, x_stage, sw, sx, cur, group * kG);
      else
        multiply_group(std::false_type{}, stage, x_stage, sw, sx, cur, group * kG);
      __syncwarp();  // every lane has read the stage before it is refilled
      if constexpr (!Cfg::kXInSmem) cur = next;
      st.advance();
      refill = refill + 1 == Cfg::kStages ? 0 : refill + 1;
    }
#if MXGEMM_TRACE_ON
    const unsigned long long trace_loop_end = MXGEMM_TRACE_NOW();
    if (trace_lead) {
      if (trace_segments == 0) MXGEMM_TRACE_SET(kTrFirstLoopEnd, trace_loop_end);
      MXGEMM_TRACE_SET(kTrLastLoopEnd, trace_loop_end);
      MXGEMM_TRACE_SET(kTrClkLast, clock64());
    }
#endif
    const bool whole = first_group == 0 && segment_end - segment_begin == sched.groups;
    finish_tile(tile, whole);
#if MXGEMM_TRACE_ON
    if (trace_lead) {
      const unsigned long long now = MXGEMM_TRACE_NOW();
      if (trace_segments == 0) MXGEMM_TRACE_SET(kTrFirstStored, now);
      MXGEMM_TRACE_ADD(kTrEpilogueNs, now - trace_loop_end);
      if (!whole) MXGEMM_TRACE_ADD(kSkTrFixupNs, now - trace_loop_end);
      MXGEMM_TRACE_SET(kTrItems, static_cast<unsigned long long>(trace_segments + 1));
    }
    ++trace_segments;
#endif
#pragma unroll
    for (int i = 0; i < Cfg::kAccRegs; ++i) result[i] = 0.0f;
    exact = false;
    use_tile = tile + 1;
    use_group = 0;
  }

  // The exact path for the tiles listed above, after the loop, where none of its registers
  // are live.
  __syncwarp();  // lane 0's list and count are visible
  const int exact_count = smem.exact_count[warp];
  for (int i = 0; i < exact_count; ++i) {
    const int n0 = warp_row0(exact_slot(i));
    exact_outputs(p.exact, p.out, 0, p.m, n0, p.n - n0 < kSkinnyTileRows ? p.n - n0 : kSkinnyTileRows, lane, 32);
  }
#if MXGEMM_TRACE_ON
  if (lane == 0) {
    const unsigned long long now = MXGEMM_TRACE_NOW();
    atomicMax(&g_stream_trace[blockIdx.x][kTrEnd], now);
    atomicMin(&g_stream_trace[blockIdx.x][kSkTrWarpEndMin], now);
  }
#endif
#else
  // Built for another architecture: the launcher only dispatches here on sm_90.
  if (threadIdx.x == 0) __trap();
#endif
}

}  // namespace mxgemm::sm90
