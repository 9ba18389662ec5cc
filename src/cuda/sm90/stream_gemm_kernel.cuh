// sm_90a weight-streaming MXFP8 GEMM: small M (decode and small batches), and large M for
// BF16 activations (weight-only) and for MXFP8 activations dequantized beforehand.
//
// For a few activation rows the GEMM is a stream over the weight W (the API's operand b,
// N x K fp8). The kernel computes D^T = W x X^T so that the weight is wgmma's register-A
// operand, dequantized exactly in registers as in the tiled kernel (mainloop.cuh), and the
// activation X is the shared-memory B operand of an m64nMk16 wgmma, M padded to kMPad
// (stream_gemm_config.cuh has the two forms X takes). Every weight byte is read from HBM
// once per kMPad activation rows; with a bf16 activation straight from TMA no operand needs
// a shared-memory round trip, so the same kernel serves large M as a tiled GEMM.
//
// Warp roles (one CTA per SM):
//   warpgroup 0    TMA producer: one thread streams kBlockN x kRingK fp8 weight tiles (128
//                  K as one 128-byte-wide box up to 128 activation rows, else 64), their
//                  scale chunks and the matching kMPad x kRingK activation tile into kStages
//                  stages; the math runs each stage as kSubStages sub-stages of 64 K.
//   warpgroups 1.. math (4 for kMPad <= 32, else 2), 64 weight rows each: fragment
//                  dequantization, wgmma, promotion; the store, or the exact path
//                  (exact_outputs.cuh) for a tile with a block outside the exact window.
//
// The exact path's watch (scale_window.cuh): every stage, each math thread folds its rows'
// scale bytes into a SIMD window test (watch_scale_window); at the end of a work item a
// thread that saw a byte outside the window looks up its rows' blocks and codes in global
// memory (rare: zero blocks carry the scale byte 0, which is outside), and the activation
// rows the pre-pass marked count too. One barrier then ORs the verdict over the CTA's math
// threads. The 16-row codes form (MXFP8 only) watches only the activation: the weight watch
// made ptxas spill in its loop (16 x 28672 x 8192 71 -> 82 us, session 18; 14% in session 8),
// so a weight block far outside the window can overflow or underflow its fp32 block-scale
// products there (docs/hopper-kernel.md says where). A separate checker warp, even one that
// only waited on the stages, made the decode shapes 5-10% slower on the H200 (session 8).
//
// Work split (stream_schedule.hpp): whole tiles round-robin while there are more than two
// waves, stream-K over (tile, K stage) pairs for the rest. Or, where 64-row weight tiles about
// fill the SMs (up to 64 activation rows), kSplitK: one such tile a CTA, K split among
// its warpgroups (below); where they are fewer, each tile's K split among a cluster of CTAs
// too (kSplitClusters, stream_split_cluster.cuh). A CTA that covers a whole tile
// stores it; partial tiles go to a workspace slot, and the last CTA to finish a tile
// (counted with one atomic per tile) adds the partials in CTA order, so the result is the
// same whichever CTA finishes last.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda/common/ptx.cuh"
#include "cuda/common/wgmma_rs.cuh"
#include "cuda/sm90/exact_outputs.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/promoted_high_parts.cuh"
#include "cuda/sm90/scale_window.cuh"
#include "cuda/sm90/stream_gemm_config.cuh"
#include "cuda/sm90/stream_epilogue.cuh"
#include "cuda/sm90/stream_schedule.hpp"
#include "cuda/sm90/stream_split_cluster.cuh"
#include "cuda/sm90/stream_trace.cuh"

namespace mxgemm::sm90 {

template <int kMPad, bool kCodes, bool kSplitK>
struct alignas(1024) StreamGemmSmem {
  using Cfg = StreamGemmConfig<kMPad, kCodes, kSplitK>;
  std::uint8_t w[Cfg::kStages][Cfg::kStageBytesW];  // fp8 rows of kWeightRowBytes, 64B/128B-swizzled by TMA
  // bf16 or fp16, 128B-swizzled by TMA, K-major: kSubStages boxes of kMPad x 64 elements.
  std::uint8_t x[Cfg::kStages][Cfg::kRingBytesX];  // (kSplitK: kQuarters parts of kStageBytesX)
  std::uint8_t scales[Cfg::kStages][Cfg::kScaleChunks * kScaleChunkBytes];  // (mainloop.cuh)
  // Codes form: the activation's block scales, fp32 [kSxBlocks][kMPad] per stage, each stage's
  // row padded to 128 bytes (a TMA destination must be 128-byte aligned).
  alignas(128) float sx[Cfg::kStages][Cfg::kRingSxFloats];
  std::uint64_t full[Cfg::kStages];   // TMA -> math: stage landed
  std::uint64_t empty[Cfg::kStages];  // math -> TMA: the stage is consumed
  int last_arrival;  // fixup: 0, or this CTA stores the tile: 1, 2 through the exact path
  int exact_count;   // tiles this CTA stores through the exact path (math thread 0's count)
  int pair_exact;    // paired halves: this CTA's exact verdict (read by the other)
  std::uint32_t split_exact;  // K-split clusters: this CTA's exact verdict (split_cluster_store)
  // The staged store's rows of D (16-bit outputs, kStagedStore; kStagedByTma: 128B-swizzled TMA
  // boxes); kPromoteInGlobal: during the mainloop, the promoted sums' high parts,
  // [kPromotedHiWords / 4][kMathThreads] 16-byte groups.
  alignas(Cfg::kStagedByTma ? 1024 : 128) std::uint8_t out_stage[Cfg::kStagedStore ? Cfg::kOutStageRegionBytes : 16];
  // kPromoteInSmem: the promoted sums, [kAccRegs][kMathThreads] (conflict-free: a warp's
  // threads touch consecutive words).
  alignas(16) float promoted[Cfg::kPromotedBytes / 4];
};

// CTA cta's slot of the promoted sums (StreamGemmConfig::kPromoteInGlobal).
template <typename Cfg>
__device__ __forceinline__ float* promoted_slot(const StreamGemmParams& p, int cta) {
  return p.promoted + static_cast<std::int64_t>(cta) * Cfg::kPromotedSlotFloats;
}

// tma_sx: the codes form's activation block scales (fp32 rows of kMPad per 32-block);
// unused in the values form. kPermutedX (values form): the activation's K order inside each
// 32-block is the permuted one of mainloop.cuh (an MXFP8 activation's pre-pass writes it so),
// and the weight fragment is read in the same order, in four 8-byte loads a stage instead of
// sixteen 2-byte ones.
//
// kSplitK (StreamGemmConfig): one 64-row weight tile a CTA over the whole K, each ring stage
// kQuarters 128-K parts laid out as kQuarters ordinary stages of a 64-row tile; math
// warpgroup w runs part w of every ring stage as its own chain of stages, and the
// warpgroups' sums are added in shared memory (warpgroup order) before warpgroup 0 stores.
//
// kF16X: the fp16 values form. The weight enters the fp16 wgmma as code x 2^(s - 127 +
// kF16WeightShift), two instructions a pair (LaneScalesF16), exact inside the fp16 window of
// scale_window.cuh, which the watch and the exact path cover as the bf16 window's. Its
// activation is an FP16 one read in its natural K order (weight-only; the sums take
// p.alpha_scale, 2^-kF16WeightShift), or, with kPermutedX, an E4M3 MXFP8 one that its pre-pass
// wrote as fp16 values at a power of two per row (activation_prepass.cu), which the store
// takes out again (p.x_row_scale, scale_activation_rows; the split reduction's store too).
//
// kSplitClusters: the K-split clusters (StreamSchedule::k_split > 1), each CTA a range of its
// tile's ring stages, the cluster's sums added by split_cluster_store: the kSplitK tiles, and
// the two-warpgroup values form's (33..64 activation rows on small weights). Their own
// instances, so that the one-tile-a-CTA ones keep their SASS: with the ranges in them their
// loops were rescheduled (H200, bench/results/s36/b2: MXFP8 16 x 8192^2 0.5-0.7 us slower in two
// rounds; b4 reads the separate instances level with main).
template <int kMPad, DType kElemW, bool kCodes, bool kPermutedX = false, bool kSplitK = false, bool kF16X = false,
          bool kSplitClusters = false>
__global__ void __launch_bounds__(StreamGemmConfig<kMPad, kCodes, kSplitK>::kThreads, 1)
    stream_gemm_sm90_kernel(const __grid_constant__ CUtensorMap tma_w,
                            const __grid_constant__ CUtensorMap tma_x,
                            const __grid_constant__ CUtensorMap tma_sx,
                            const __grid_constant__ StreamGemmParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Cfg = StreamGemmConfig<kMPad, kCodes, kSplitK>;
  using Mma = std::conditional_t<kCodes || kF16X, ptx::WgmmaF16Rs<kMPad>, ptx::WgmmaBf16Rs<kMPad>>;
  static_assert(!kF16X || !kCodes, "the fp16 values form is a values form");
  static_assert(!kF16X || kElemW == DType::E4M3, "the fp16 window is built for E4M3 weights");
  static_assert(!kSplitClusters || kSplitK || wide_clusters_built(kMPad, kCodes, kPermutedX),
                "the clusters split the kSplitK tiles and the 64-row values form's");
  using Smem = StreamGemmSmem<kMPad, kCodes, kSplitK>;
  // The launcher interleaves halves (StreamSchedule::interleave_halves) for these instances
  // only; the others run each work item's stages one after another.
  constexpr bool kInterleaves = !kCodes && Cfg::kMathWarpgroups == 2 && !kSplitK;
  static_assert(Mma::kAccRegs == Cfg::kAccRegs, "accumulator size mismatch");
  static_assert(sizeof(Smem) + 1023 <= Cfg::kSmemBytes,
                "the smem layout plus alignment slack must fit the dynamic allocation");
  static_assert(offsetof(Smem, x) % 1024 == 0 && offsetof(Smem, scales) % 128 == 0 && offsetof(Smem, sx) % 128 == 0,
                "swizzled tiles start on 1024 bytes, every TMA destination on 128 (an unaligned TMA "
                "destination faults at run time: misaligned address)");
  extern __shared__ std::uint8_t smem_raw[];
  auto& smem = ptx::aligned_dynamic_smem<Smem>(smem_raw);
  const int lane = threadIdx.x & 31;
  const StreamSchedule& sched = p.sched;
  const int cta = static_cast<int>(blockIdx.x), ctas = static_cast<int>(gridDim.x);

  if (threadIdx.x == 0) {
#if MXGEMM_TRACE_ON
    for (int e = 0; e < kTraceEvents; ++e) MXGEMM_TRACE_SET(e, 0ull);
#endif
    MXGEMM_TRACE_SET(kTrStart, MXGEMM_TRACE_NOW());
    // The reduction kernel that follows a split reduction may take the SMs this grid leaves
    // idle or frees; it waits for this grid's completion before reading a partial.
    if (sched.split_reduce) ptx::griddepcontrol_launch_dependents();
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbarrier_init(&smem.full[s], 1);
      ptx::mbarrier_init(&smem.empty[s], Cfg::kMathThreads / 32);  // math warps
    }
    smem.exact_count = 0;
    ptx::fence_barrier_init();
  }
  __syncthreads();

  if (threadIdx.x < 128) {
    // ---- TMA producer ------------------------------------------------------------------
    ptx::setmaxnreg_dec<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      MXGEMM_TRACE_SET(kTrProducerUp, MXGEMM_TRACE_NOW());
      ptx::prefetch_tensor_map(&tma_w);
      ptx::prefetch_tensor_map(&tma_x);
      ptx::prefetch_tensor_map(&p.sw.map);
      if constexpr (kCodes) ptx::prefetch_tensor_map(&tma_sx);
      // A weight read once (one activation tile: every weight tile meets its activation rows
      // once) is loaded with an L2 evict_first policy, so that its lines, never read again,
      // leave first and the lines read by every CTA (the activation, the scales, the stream-K
      // partials) stay. On the H200 (session 19, same run, decode suite, bench/results/s19/b5)
      // most small-M shapes got 1-5% faster, e.g. MXFP8 16 x 28672 x 8192 71.6 -> 68.9 us; M = 64
      // did not move (94.6 -> 94.7). Where activation tiles share a weight strip in L2 (several
      // of them), the default policy stays.
      const bool weight_read_once = sched.tiles_m == 1;
      const std::uint64_t read_once_policy = ptx::l2_policy_evict_first();
      MXGEMM_TRACE_SET(kTrMapsFetched, MXGEMM_TRACE_NOW());
      int issued = 0;  // ring stages loaded so far
      // The weight and its scales of weight tile n, stage ks, into stage `s` (the barrier
      // expects the activation tile too). A scale chunk holds 4 blocks, 128 K: a 128-K stage's
      // own, or two 64-K stages' (each loads it).
      // (kSplitK: part j of ring stage ks is 128-K stage kQuarters ks + j of the 64-row tile,
      // the chunk of its 128-row pair of tiles; parts past K load TMA's zeros, never read.)
      static_assert(Cfg::kRingBytesX % kMPad == 0, "a ring stage's activation bytes are whole rows");
      const int stage_tx_bytes = Cfg::kStageBytes - Cfg::kRingBytesX + p.x_box_rows * (Cfg::kRingBytesX / kMPad) +
                                 Cfg::kScaleChunks * kScaleChunkBytes;
      auto load_weight = [&](int n, int ks, int s) {
        ptx::mbarrier_arrive_expect_tx(&smem.full[s], stage_tx_bytes);
#if MXGEMM_TRACE_ON
        if (issued == 0) MXGEMM_TRACE_SET(kTrFirstExpect, MXGEMM_TRACE_NOW());
#endif
        if constexpr (kSplitK) {
#pragma unroll
          for (int j = 0; j < Cfg::kQuarters; ++j) {
            const int kq = ks * Cfg::kQuarters + j;
            ptx::tma_load_2d(smem.scales[s] + j * kScaleChunkBytes, &p.sw.map, &smem.full[s], 0,
                             scale_chunk_row(n / 2, p.sw.col_tiles, kq * Cfg::kSubStages));
#if MXGEMM_TRACE_ON
            if (issued == 0 && j == 0) MXGEMM_TRACE_SET(kTrFirstScaleTma, MXGEMM_TRACE_NOW());
#endif
            ptx::tma_load_2d(smem.w[s] + j * Cfg::kPartBytesW, &tma_w, &smem.full[s], kq * Cfg::kRingK,
                             n * Cfg::kBlockN, read_once_policy);
          }
        } else {
          for (int c = 0; c < Cfg::kScaleChunks; ++c)
            ptx::tma_load_2d(smem.scales[s] + c * kScaleChunkBytes, &p.sw.map, &smem.full[s], 0,
                             scale_chunk_row(n * Cfg::kScaleChunks + c, p.sw.col_tiles, ks * Cfg::kSubStages));
#if MXGEMM_TRACE_ON
          if (issued == 0) MXGEMM_TRACE_SET(kTrFirstScaleTma, MXGEMM_TRACE_NOW());
#endif
          if (weight_read_once)
            ptx::tma_load_2d(smem.w[s], &tma_w, &smem.full[s], ks * Cfg::kRingK, n * Cfg::kBlockN, read_once_policy);
          else
            ptx::tma_load_2d(smem.w[s], &tma_w, &smem.full[s], ks * Cfg::kRingK, n * Cfg::kBlockN);
        }
      };
      auto load_activation = [&](int m, int ks, int s) {
#pragma unroll
        for (int j = 0; j < Cfg::kQuarters; ++j) {
          const int kq = ks * Cfg::kQuarters + j;
#pragma unroll
          for (int sub = 0; sub < Cfg::kSubStages; ++sub)
            ptx::tma_load_2d(smem.x[s] + j * Cfg::kStageBytesX + sub * Cfg::kSubStageBytesX, &tma_x, &smem.full[s],
                             (kq * Cfg::kSubStages + sub) * kStageK * 2, m * kMPad);
          if constexpr (kCodes)
            ptx::tma_load_2d(smem.sx[s] + j * Cfg::kSxSmemFloats, &tma_sx, &smem.full[s], m * kMPad * 4,
                             Cfg::kSxBlocks * kq);
        }
      };
      // The first kWeightsAhead stages' weights stream while an activation pre-pass may still
      // run (this kernel is a programmatic dependent launch); its output is read only after
      // the wait. Two, not the whole ring: the CTAs start as the pre-pass's CTAs drain, so the
      // wait rarely holds them, and behind eight weight stages the first activation load went
      // out 1 us after the first weight load (timeline, session 15). An activation read in
      // place has no pre-pass: the wait first (it covers whatever kernel ran before), then each
      // stage's weight and activation together.
      constexpr int kWeightsAhead = Cfg::kStages < 2 ? Cfg::kStages : 2;
      int prologue_m[kWeightsAhead], prologue_ks[kWeightsAhead];
      const bool defer_x = !p.x_in_place;
      if (!defer_x) ptx::griddepcontrol_wait();
      auto finish_prologue = [&](int count) {
        ptx::griddepcontrol_wait();
        MXGEMM_TRACE_SET(kTrDepWait, MXGEMM_TRACE_NOW());
        for (int s = 0; s < count; ++s) load_activation(prologue_m[s], prologue_ks[s], s);
      };
      RingIndex<Cfg::kStages> st;
      walk_work<kInterleaves, kSplitK || kSplitClusters, kSplitClusters>(sched, cta, ctas, [&](const StreamWork& work) {
        const StreamTile tile = sched.coord(work.tile);
#if MXGEMM_TRACE_ON
        if (issued == 0) MXGEMM_TRACE_SET(kTrWorkReady, MXGEMM_TRACE_NOW());
#endif
        for (int ks = work.ks0; ks < work.ks_end; ks += kInterleaves ? work.step : 1, ++issued, st.advance()) {
          if (issued >= Cfg::kStages) {
            [[maybe_unused]] const unsigned long long t_wait = MXGEMM_TRACE_NOW();
            ptx::mbarrier_wait(&smem.empty[st.index], st.phase ^ 1);
            MXGEMM_TRACE_ADD(kTrProducerWaitNs, MXGEMM_TRACE_NOW() - t_wait);
          }
          load_weight(tile.n, ks, st.index);
#if MXGEMM_TRACE_ON
          if (issued == 0) MXGEMM_TRACE_SET(kTrFirstTma, MXGEMM_TRACE_NOW());
#endif
          if (defer_x && issued < kWeightsAhead) {
            prologue_m[issued] = tile.m;
            prologue_ks[issued] = ks;
            if (issued == kWeightsAhead - 1) finish_prologue(kWeightsAhead);
          } else {
            load_activation(tile.m, ks, st.index);
          }
        }
        // A start part (the CTA's last item, see fixup_partial_tile): the next CTA's partial of
        // the tile, written long before and in DRAM by now, into L2 while the math warps still
        // have the ring's stages to run. That CTA's range starts inside this tile, so the slot
        // is its first, 2 (cta + 1), found without the schedule's 64-bit divisions (which do not
        // fit the producer's registers). (A third part, rare, is left to the fixup's loads.)
        // An item that promoted into its CTA's slot (kPromoteInGlobal, the accumulators past the
        // high parts) reads the slot back at its end: the slot into L2 (in case the stream
        // evicted it) while the ring's stages still run.
        if constexpr (Cfg::kPromotesIntoSlot) {
          if (p.promote_stages > 0 && work.stages() > p.promote_stages)
            ptx::prefetch_l2_bulk(promoted_slot<Cfg>(p, cta), Cfg::kPromotedSlotFloats * 4);
        }
        if (work.stream_tile >= 0 && work.ks0 == 0 && work.ks_end < sched.k_stages && !sched.split_reduce &&
            (!kInterleaves || work.step == 1)) {
          constexpr int kSlotFloats = Cfg::kBlockN * kMPad;
          ptx::prefetch_l2_bulk(p.partials + static_cast<std::int64_t>(2 * (cta + 1)) * kSlotFloats, kSlotFloats * 4);
        }
      });
      if (defer_x && issued < kWeightsAhead) finish_prologue(issued);
    }
#if MXGEMM_TRACE_ON
    if (lane == 0) MXGEMM_TRACE_MAX(kTrLastExit, MXGEMM_TRACE_NOW());
#endif
    return;
  }

  // ---- math warpgroups ------------------------------------------------------------------
  ptx::setmaxnreg_inc<Cfg::kMathRegs>();
  const int math_tid = threadIdx.x - 128;
  const int warp_row0 = Cfg::warp_row0(math_tid);  // this warp's 16 weight rows in the tile
  const int w_row = warp_row0 + (lane >> 2);   // fragment rows w_row, w_row + 8
  const int q = lane & 3;
  const float alpha = __ldg(p.out.alpha) * p.alpha_scale;  // (exact: a power of two)
  // kSplitK: this warpgroup's 128-K part of each ring stage (run_mainloop has where the part
  // lies in a stage). The tile is the CTA's own, tile cta, or with kSplitClusters a range of the
  // ring stages of tile sched.split_tile(cta).
  const int part = kSplitK ? math_tid / 128 : 0;
  const int split_tile = kSplitClusters ? sched.split_tile(cta) : cta;

  RingIndex<Cfg::kStages> st;
  // The fp32 sum of the promoted partials: in registers, or this thread's column of
  // smem.promoted (kPromoteInSmem; then `result` is unused).
  float result[Cfg::kAccRegs];
  float* const promoted = smem.promoted + math_tid;
  // kPromotesIntoSlot: this thread's floats of the CTA's slot (its accumulators past the high
  // parts). The slot is [(kAccRegs - kPromotedHiAcc) / 4][kMathThreads] float4s, so a
  // warp's 16-byte stores, adds and loads each cover 512 consecutive bytes; with a thread's
  // floats consecutive each touched 32 half-used sectors, and the promotion cost 2-2.5x as much
  // (H200, same run, session 24, bench/results/s24/b1: 2048 x 8192 x 28672 1340 -> 1238 us,
  // 4096 x 8192^2 FP32 out promoted every 4096 K on these tiles 754 us, 860 on the 128-row
  // tiles, 705 unpromoted).
  float* const global_promoted =
      Cfg::kPromotesIntoSlot ? promoted_slot<Cfg>(p, cta) + math_tid * 4 : nullptr;
  // kPromoteInGlobal: this thread's first group of high parts (kPromotedHiWords / 4 groups, a
  // warp's 16-byte accesses over 512 consecutive bytes: conflict-free).
  uint4* const promoted_hi = reinterpret_cast<uint4*>(smem.out_stage) + math_tid;
  bool item_promoted = false;  // kPromoteInGlobal: the current work item has promoted (high parts, slot)

  // The previous stage's wgmmas are complete: its weight and activation may be overwritten.
  // No proxy fence: the weight's generic loads have completed (their values fed those
  // wgmmas), and a fence here costs a MEMBAR.ALL.CTA per stage.
  auto release_previous_stage = [&] {
    __syncwarp();
    if (lane == 0) ptx::mbarrier_arrive(&smem.empty[st.behind(1)]);
  };
  // Within a stage's scale chunks (the codes forms keep two pinned offsets: with one, the
  // 16-row codes kernel spilled 28-40 bytes).
  const std::conditional_t<kCodes, FragmentScaleOffsets, FragmentScaleBase> scale_at(
      kSplitK ? (split_tile % 2) * Cfg::kBlockN + w_row : w_row);  // (kSplitK: a 64-row tile is half a chunk)
  // This thread's rows met a scale outside the exact window in the current work item
  // (watch_scale_window).
  bool outside_window = false;
  // The same for the values form, as the window test's bits (fragment_scales_bf16).
  std::uint32_t outside_bits = 0;
  // The values form's weight scales: as lanes (LaneScalesBf16) where that measured faster, the
  // permuted order (MXFP8 activations) and the four-warpgroup tiles; on the H200, same run,
  // two rounds (session 21, bench/results/s21/b5): MXFP8 32 / 64 x 28672 x 8192 75.9-76.1 /
  // 85.1-86.3 -> 74.3-74.5 / 82.9-83.7 us, 128 x 8192^2 37.5 -> 36.3, weight-only 32 x 28672 x
  // 8192 76.8-77.3 -> 72.5-72.7. The two-warpgroup tiles of the natural order (weight-only
  // from 33 rows) were 2-4% slower with them (64 x 28672 x 8192 85.5-85.6 -> 87.1, 8192^3
  // 1302-1306 -> 1355-1357) and keep the broadcast scales.
  // The fp16 values form always takes lanes (its own, LaneScalesF16).
  constexpr bool kLaneScales = kPermutedX || Cfg::kMathWarpgroups == 4 || kF16X;
  using ValueScales = std::conditional_t<kF16X, LaneScalesF16,
                                         std::conditional_t<kLaneScales, LaneScalesBf16, BroadcastScalesBf16>>;
  // Whether this thread's weight rows in tile column tn have a block of stages [ks0, ks_end)
  // that needs the exact path (needs_exact_path), from the scales and codes in global memory:
  // the rare follow-up of the watch. Scale lanes make a NaN scale +Inf, so with them a NaN
  // block with nonzero codes counts too.
  auto rows_need_exact = [&](int tn, int ks0, int ks_end) {
    return weight_rows_need_exact<kElemW, !kCodes && kLaneScales, kF16X>(
        p.exact.w, p.sw, p.n, p.k, tn * Cfg::kBlockN + w_row, Cfg::kBlocksPerStage * ks0,
        Cfg::kBlocksPerStage * ks_end < p.scale_cols ? Cfg::kBlocksPerStage * ks_end : p.scale_cols);
  };
  // wgmma descriptors of the activation stages: the one of stage 0 plus the stage's offset in
  // the descriptor's address field (16-byte units; shared memory ends below 256 KB, so the
  // 14-bit field never carries), and 32 bytes (2 units) per k16 step inside the 128B-swizzled
  // rows. One add per wgmma instead of rebuilding the descriptor from the address.
  constexpr std::uint64_t kDescK16Step = 32 >> 4;
  std::uint64_t x_desc0 = ptx::smem_desc_k_major_sw128(ptx::smem_addr(smem.x[0]));
  ptx::keep_in_register(x_desc0);
  static_assert(!(kCodes && kPermutedX), "the codes form is always permuted");
  // Within a stage's 64B- or 128B-swizzled weight tile (kWeightRowBytes), in the activation's
  // K order (only those offsets are built: each is pinned in a register).
  using FragmentOffsets = std::conditional_t<kPermutedX, PermutedFragmentOffsets<Cfg::kWeightRowBytes>,
                                             NaturalFragmentOffsets<Cfg::kWeightRowBytes>>;
  const FragmentOffsets frag_at(w_row, q);
  using Sub0 = std::integral_constant<int, 0>;
  using Sub1 = std::integral_constant<int, 1>;
  // The item's last sub-stage ends at K: a 128-K stage past the end of K by its second half
  // (K % 128 in 1..64) runs its first sub-stage only, as the second's scale bytes are the
  // chunk's padding, which may hold a NaN byte (0 x NaN; its codes are TMA's zeros).
  const int k_sub_stages = (p.k + kStageK - 1) / kStageK;
  auto sub_stage_end = [&](int ks_end) {
    return ks_end * Cfg::kSubStages < k_sub_stages ? ks_end * Cfg::kSubStages : k_sub_stages;
  };

  // ---- values form ------------------------------------------------------------------------
  float partial[Cfg::kAccRegs];  // wgmma accumulator of the current promotion group
  // The tile's sum once its last group is promoted: `result`, or the accumulator itself (the
  // sum in shared memory is added into it; the widest tiles do not promote:
  // stream_gemm_config.cuh).
  float (&total)[Cfg::kAccRegs] = *[&] {
    if constexpr (Cfg::kPromoteInRegisters && !Cfg::kPromoteInSmem) return &result;
    else return &partial;
  }();
#if MXGEMM_TRACE_ON
  unsigned long long trace_loop_end = 0, trace_stages = 0, trace_items = 0, trace_math_wait = 0;
#endif
  // The current ring stage has landed (trace builds: math thread 0 adds up the time waited).
  auto wait_full = [&] {
    [[maybe_unused]] const unsigned long long t_wait = MXGEMM_TRACE_NOW();
    ptx::mbarrier_wait(&smem.full[st.index], st.phase);
#if MXGEMM_TRACE_ON
    if (math_tid == 0) trace_math_wait += MXGEMM_TRACE_NOW() - t_wait;
#endif
  };
  float block_partial[2][Cfg::kAccRegs];

  // The mainloop of part kPart (kSplitK: one instance a warpgroup, so that its offsets in the
  // ring stage are constants and the activation's wgmma descriptors stay in uniform
  // registers; otherwise part 0, the whole stage).
  auto run_mainloop = [&](auto part_c, const StreamWork& work) {
    constexpr int kPart = decltype(part_c)::value;
    // kSplitK: this warpgroup's local sub-stages (every ring stage's part kPart, up to K) in the
    // item's ring stages (all, or kSplitClusters a cluster rank's range; the launcher sees that
    // every part has some: kSplitKMinK, split_k_ranges_fit), counted from the range's first,
    // split_base. (The loops run from local sub-stage 0, so that a range costs them no
    // instruction.)
    [[maybe_unused]] const int split_base = kSplitClusters ? work.ks0 * Cfg::kSubStages : 0;
    const int part_sub_stages = [&] {
      const int k128 = (k_sub_stages + Cfg::kSubStages - 1) / Cfg::kSubStages;  // 128-K stages of K
      const int parts = (k128 - kPart + Cfg::kQuarters - 1) / Cfg::kQuarters;
      const int last = (parts - 1) * Cfg::kQuarters + kPart;
      const int last_subs = k_sub_stages - last * Cfg::kSubStages;
      const int end = (parts - 1) * Cfg::kSubStages + (last_subs < Cfg::kSubStages ? last_subs : Cfg::kSubStages);
      if constexpr (kSplitClusters) return (end < work.ks_end * Cfg::kSubStages ? end : work.ks_end * Cfg::kSubStages) - split_base;
      else return end;
    }();
    constexpr int part_w = kPart * Cfg::kPartBytesW;
    constexpr int part_scales = kPart * kScaleChunkBytes;
    constexpr int part_sx = kPart * Cfg::kSxSmemFloats;
    // What the scale readers see of sub-stage kss: its index and the scale blocks of K, so that
    // the second block of the sub-stage that ends K at its first half (K % 64 in 1..32) reads as
    // scale 1 (its byte is the chunk's padding). kSplitK: the local index kss has the parity of
    // the sub-stage of K it is (a ring stage's parts are whole 128-K stages), and only the last
    // sub-stage of K can be padded, so a local bound stands for the blocks: that sub-stage's, if
    // it is this part's, else none (from the range's first sub-stage, split_base, which is
    // even: the parities stay). (The local-to-global index a sub-stage cost every split loop
    // registers and instructions.)
    const int split_scale_blocks = [&] {
      if constexpr (kSplitK) {
        const int last = (p.scale_cols - 1) / 2;  // the last sub-stage of K
        if (p.scale_cols % 2 == 0 || (last / Cfg::kSubStages) % Cfg::kQuarters != kPart)
          return 0x7FFFFFFF;
        return 2 * ((last / Cfg::kSubStages / Cfg::kQuarters) * Cfg::kSubStages + last % Cfg::kSubStages - split_base) + 1;
      } else {
        return 0;
      }
    }();
    auto scale_blocks = [&] { return kSplitK ? split_scale_blocks : p.scale_cols; };
    auto weight_scales = [&](int stage, int ks, float (&sw)[2][2]) {
      fragment_scales<kElemW, Cfg::kWatchesWeight, Cfg::kShiftDecodesScales>(smem.scales[stage] + part_scales, scale_at,
                                                                              ks, scale_blocks(), sw,
                                                                              outside_window);
    };
    auto weight_scales_bf16 = [&](int stage, int ks, ValueScales& sw) {
      if constexpr (kF16X)
        fragment_scales_f16<kElemW>(smem.scales[stage] + part_scales, scale_at, ks, scale_blocks(), sw, outside_bits);
      else if constexpr (kLaneScales)
        fragment_scales_bf16<kElemW>(smem.scales[stage] + part_scales, scale_at, ks, scale_blocks(), sw,
                                     outside_bits);
      else
        fragment_scales_bf16<kElemW>(smem.scales[stage] + part_scales, scale_at, ks, scale_blocks(), sw,
                                     outside_window);
    };
    auto stage_x_desc = [&](int stage) {
      return x_desc0 + (kPart * Cfg::kStageBytesX >> 4) + static_cast<std::uint64_t>(stage) * (Cfg::kRingBytesX >> 4);
    };
    // Sub-stage `sub` (std::integral_constant) of ring stage `stage`.
    auto load_values_fragment = [&](auto sub, int stage, const ValueScales& sw,
                                    std::uint32_t (&frag)[kK16PerStage][4]) {
      constexpr int kSub = decltype(sub)::value;
      if constexpr (kPermutedX) load_fragment_permuted<kElemW, kSub>(smem.w[stage] + part_w, frag_at, sw, frag);
      else load_fragment_natural<kElemW, kSub>(smem.w[stage] + part_w, frag_at, sw, frag);
    };
    // last: the item's final group. In shared memory the sum of the earlier groups is then added
    // into `partial` (the same additions in the same order as into `result`: the same bits).
    auto promote = [&](bool last = false) {
      if constexpr (Cfg::kPromoteInSmem) {
#pragma unroll
        for (int i = 0; i < Cfg::kAccRegs; ++i) {
          ptx::fence_operand(partial[i]);
          if (last) partial[i] = promoted[i * Cfg::kMathThreads] + partial[i];
          else promoted[i * Cfg::kMathThreads] += partial[i];
        }
      } else if constexpr (Cfg::kPromoteInRegisters) {
#pragma unroll
        for (int i = 0; i < Cfg::kAccRegs; ++i) {
          ptx::fence_operand(partial[i]);
          result[i] += partial[i];
        }
      } else if constexpr (Cfg::kPromoteInGlobal) {
        // Accumulators [0, kHi): the running sum split into a bf16 high part in shared memory and
        // the exact rest, left in the accumulator (stream_gemm_config.cuh); the last promotion
        // adds the high part back. The rest [kHi, kAccRegs): into the CTA's global slot, the first
        // group stored, later ones added (red.add: no load in the loop), and the last added to the
        // slot's sum, read back once (after a fence: the adds have landed). The slot's lines are
        // kept in L2 (evict_last), and the producer prefetches them there before the read-back
        // (load_weight's caller): 0.4-1% faster on most shapes that promote (H200, same run, two
        // rounds, session 24, bench/results/s24/b2: 4096 x 8192^2 FP32 out 761-763 -> 754 us,
        // 2048 x 8192 x 28672 1251 -> 1246-1248; one of eight shapes moved either way).
        constexpr int kHi = Cfg::kPromotedHiAcc;
        // This thread's float4 in the slot for accumulators [i, i + 4), i >= kHi.
        const auto slot_at = [&](int i) { return global_promoted + (i - kHi) * Cfg::kMathThreads; };
#pragma unroll
        for (int i = 0; i < Cfg::kAccRegs; ++i) ptx::fence_operand(partial[i]);
        const std::uint64_t keep_policy = ptx::l2_policy_evict_last();
        if (last) {
          if (item_promoted) {
#pragma unroll
            for (int g = 0; g < kHi / 8; ++g) add_high_parts(partial, 8 * g, promoted_hi[g * Cfg::kMathThreads]);
            if constexpr (Cfg::kPromotesIntoSlot) {
              __threadfence();
#pragma unroll
              for (int i = kHi; i < Cfg::kAccRegs; i += 4) {
                const float4 v = __ldcg(reinterpret_cast<const float4*>(slot_at(i)));
                partial[i] = v.x + partial[i];
                partial[i + 1] = v.y + partial[i + 1];
                partial[i + 2] = v.z + partial[i + 2];
                partial[i + 3] = v.w + partial[i + 3];
              }
            }
          }
        } else {
          if (!item_promoted) {
            // The high parts' shared memory is the staging rows of the previous item's store:
            // TMA has read them (math thread 0 waits), and every math thread is past that store.
            if constexpr (Cfg::kStagedByTma) {
              if (math_tid == 0) ptx::bulk_wait_group_read<0>();
            }
            ptx::named_barrier_sync(1, Cfg::kMathThreads);
          }
#pragma unroll
          for (int g = 0; g < kHi / 8; ++g) {
            uint4& hi = promoted_hi[g * Cfg::kMathThreads];
            hi = split_high_parts(partial, 8 * g, item_promoted ? hi : negative_zero_high_parts());
          }
          if constexpr (Cfg::kPromotesIntoSlot) {
#pragma unroll
            for (int i = kHi; i < Cfg::kAccRegs; i += 4) {
              if (!item_promoted)
                ptx::st_global_v4(slot_at(i), partial[i], partial[i + 1], partial[i + 2], partial[i + 3], keep_policy);
              else
                ptx::red_add_v4(slot_at(i), partial[i], partial[i + 1], partial[i + 2], partial[i + 3], keep_policy);
            }
            // (Their chain restarts; the high parts' accumulators go on from their rest.)
#pragma unroll
            for (int i = kHi; i < Cfg::kAccRegs; ++i) partial[i] = 0.0f;
          }
          item_promoted = true;
        }
      }
    };
    auto issue_values = [&](const std::uint32_t (&frag)[kK16PerStage][4], bool fresh, int sub = 0) {
      const std::uint64_t x_desc = stage_x_desc(st.index) + sub * (Cfg::kSubStageBytesX >> 4);
#pragma unroll
      for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(partial[r]);
      ptx::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kK16PerStage; ++kk)
        Mma::mma(partial, frag[kk], x_desc + kk * kDescK16Step, (fresh && kk == 0) ? 0u : 1u);
      ptx::wgmma_commit();
#pragma unroll
      for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(partial[r]);
    };
    // Stages ks0, ks0 + step, ... below ks_end (step 2: interleaved halves, kInterleaves).
    auto mainloop_values = [&](int ks0, int ks_end, int step) {
      if constexpr (Cfg::kValueFragments == 1) {
        static_assert(!kInterleaves, "the one-fragment loop runs whole ranges of stages");
        constexpr int kSubs = Cfg::kSubStages;
        std::uint32_t frag[kK16PerStage][4];
        const int kss0 = ks0 * kSubs, kss_end = kSplitK ? part_sub_stages : sub_stage_end(ks_end);
        // Sub-stage kss (64-K steps from K = 0; kSplitK: of this warpgroup's parts), `sub` of the
        // current ring stage.
        auto sub_stage = [&](auto sub, int kss) {
          constexpr int kSub = decltype(sub)::value;
          const int i = kss - kss0;
          if constexpr (kSub == 0) wait_full();
#if MXGEMM_TRACE_ON
          if (math_tid == 0 && trace_items == 0 && i == 0) MXGEMM_TRACE_SET(kTrFirstStage, MXGEMM_TRACE_NOW());
#endif
          ValueScales sw;
          weight_scales_bf16(st.index, kss, sw);
          // The fragment registers of in-flight wgmmas must not be rewritten (ptxas would
          // serialize every wgmma): finish the previous sub-stage first, then free its stage.
          if (i > 0) {
            ptx::wgmma_wait<0>();
            if (i % Cfg::kStagesPerPromotion == 0) promote();
            if constexpr (kSub == 0) release_previous_stage();
          }
          load_values_fragment(sub, st.index, sw, frag);
          issue_values(frag, i % Cfg::kStagesPerPromotion == 0, kSub);
          if constexpr (kSub == kSubs - 1) st.advance();
        };
        for (int kss = kss0; kss < kss_end; kss += kSubs) {
          sub_stage(Sub0{}, kss);
          if constexpr (kSubs == 2) {
            if (kss + 1 < kss_end) sub_stage(Sub1{}, kss + 1);
            else st.advance();  // (the tail stage of one sub-stage)
          }
        }
      } else {
        // Two fragments by sub-stage parity: sub-stage i is converted while sub-stage i-1's
        // wgmmas run, into the fragment sub-stage i-2 used (complete: at most one group is left
        // in flight). With two sub-stages a ring stage the parity is the sub-stage.
        constexpr int kSubs = Cfg::kSubStages;
        std::uint32_t frag[2][kK16PerStage][4];
        // kPromoteInGlobal: the next sub-stage that starts a fresh group (set below, once the
        // item's sub-stages are counted).
        [[maybe_unused]] int promote_at = 0x7FFFFFFF;
        auto stage = [&](auto parity, int i) {
          constexpr int buf = decltype(parity)::value;
          constexpr int kSub = kSubs == 2 ? buf : 0;
          const int ks = (ks0 + (i / kSubs) * step) * kSubs + kSub;  // the sub-stage, 64-K steps
          if constexpr (kSub == 0) wait_full();
#if MXGEMM_TRACE_ON
          if (math_tid == 0 && trace_items == 0 && i == 0) {
            MXGEMM_TRACE_SET(kTrFirstStage, MXGEMM_TRACE_NOW());
            MXGEMM_TRACE_SET(kTrClkFirst, clock64());
          }
#endif
          ValueScales sw;
          weight_scales_bf16(st.index, ks, sw);
          load_values_fragment(std::integral_constant<int, kSub>{}, st.index, sw, frag[buf]);
          const bool fresh = Cfg::kPromoteInRegisters ? i % Cfg::kStagesPerPromotion == 0 : i == 0;
          bool promotes = fresh && i > 0;
          if constexpr (Cfg::kPromoteInGlobal) {
            // (The chain goes on from the rest that the promotion leaves: not fresh.)
            if (i == promote_at) {
              promotes = true;
              promote_at += p.promote_stages;
            }
          }
          if (promotes) {
            ptx::wgmma_wait<0>();
            promote();
          }
          issue_values(frag[buf], fresh, kSub);
          if (i > 0) {
            ptx::wgmma_wait<1>();
            // Sub-stage i-1 is complete: the last of the previous ring stage when kSub is 0.
            if constexpr (kSub == 0) release_previous_stage();
          }
          if constexpr (kSub == kSubs - 1) st.advance();
        };
        // Sub-stages of the item; the tile's last ring stage may run its first one only
        // (sub_stage_end), and it is the last stage of the item that has it.
        const int stages = stages_in(ks0, ks_end, step);
        int subs = stages;
        if constexpr (kSplitK) subs = part_sub_stages;
        else if constexpr (kSubs == 2) subs = 2 * stages - (2 * (ks0 + (stages - 1) * step) + 2 > k_sub_stages ? 1 : 0);
        if constexpr (Cfg::kPromoteInGlobal) {
          if (p.promote_stages > 0) promote_at = first_promotion_sub_stage(subs, p.promote_stages, cta, p.promote_groups);
        }
        for (int i = 0; i < subs; i += 2) {
          stage(Sub0{}, i);
          if (i + 1 < subs) stage(Sub1{}, i + 1);
          else if constexpr (kSubs == 2) st.advance();  // (the tail stage of one sub-stage)
        }
      }
      ptx::wgmma_wait<0>();
      promote(true);
      release_previous_stage();
#if MXGEMM_TRACE_ON
      if (math_tid == 0) {
        trace_loop_end = MXGEMM_TRACE_NOW();
        trace_stages += stages_in(ks0, ks_end, step);
        ++trace_items;
        if (trace_items == 1) MXGEMM_TRACE_SET(kTrFirstLoopEnd, trace_loop_end);
        MXGEMM_TRACE_SET(kTrLastLoopEnd, trace_loop_end);
        MXGEMM_TRACE_SET(kTrClkLast, clock64());
      }
#endif
    };

    // ---- codes form: two fragments (by sub-stage parity), one partial per scale block -----------
    // A ring stage holds kSubStages 64-K sub-stages (stream_gemm_config.cuh). The next
    // sub-stage's fragment is converted while the previous one's wgmmas run; their partials are
    // then scaled into the result, and a ring stage is freed once its last sub-stage's are.
    // Sub-stage `sub` of ring stage `stage`, kss = its index in 64-K steps from K = 0.
    auto promote_blocks = [&](int stage, int sub, int kss) {
      float sw[2][2];
      weight_scales(stage, kss, sw);
#pragma unroll
      for (int blk = 0; blk < 2; ++blk) {
#pragma unroll
        for (int j = 0; j < Cfg::kAccRegs / 4; ++j) {
          const float2 sx =
              *reinterpret_cast<const float2*>(&smem.sx[stage][part_sx + (2 * sub + blk) * kMPad + 8 * j + 2 * q]);
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            float& p0 = block_partial[blk][4 * j + 2 * half];
            float& p1 = block_partial[blk][4 * j + 2 * half + 1];
            ptx::fence_operand(p0);
            ptx::fence_operand(p1);
            result[4 * j + 2 * half] = fmaf(p0, sw[half][blk] * sx.x, result[4 * j + 2 * half]);
            result[4 * j + 2 * half + 1] = fmaf(p1, sw[half][blk] * sx.y, result[4 * j + 2 * half + 1]);
          }
        }
      }
    };
    // Ring stages [ks0, ks_end), their sub-stages to sub_stage_end.
    auto mainloop_codes = [&](int ks0, int ks_end) {
      constexpr int kSubs = Cfg::kSubStages;
      std::uint32_t frag[2][kK16PerStage][4];
      const int kss0 = ks0 * kSubs, kss_end = kSplitK ? part_sub_stages : sub_stage_end(ks_end);
      auto stage = [&](auto parity, int kss) {
        constexpr int buf = decltype(parity)::value;
        // With two sub-stages a ring stage, the parity is the sub-stage (kss0 is even).
        constexpr int sub = kSubs == 2 ? buf : 0;
        if constexpr (sub == 0) wait_full();
#if MXGEMM_TRACE_ON
        if (math_tid == 0 && trace_items == 0 && kss == kss0) MXGEMM_TRACE_SET(kTrFirstStage, MXGEMM_TRACE_NOW());
#endif
        load_fragment_codes<kElemW, Cfg::kWeightRowBytes, sub>(smem.w[st.index] + part_w, w_row, q, frag[buf]);
        if (kss > kss0) {
          ptx::wgmma_wait<0>();
          // The previous sub-stage: this ring stage's first, or the last of the one before.
          if constexpr (sub == 1) {
            promote_blocks(st.index, 0, kss - 1);
          } else {
            promote_blocks(st.behind(1), kSubs - 1, kss - 1);
            release_previous_stage();
          }
        }
        const std::uint64_t x_desc = stage_x_desc(st.index) + sub * (Cfg::kSubStageBytesX >> 4);
#pragma unroll
        for (int b = 0; b < 2; ++b)
#pragma unroll
          for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(block_partial[b][r]);
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kK16PerStage; ++kk)
          Mma::mma(block_partial[kk / 2], frag[buf][kk], x_desc + kk * kDescK16Step,
                   kk % 2 == 0 ? 0u : 1u);
        ptx::wgmma_commit();
#pragma unroll
        for (int b = 0; b < 2; ++b)
#pragma unroll
          for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(block_partial[b][r]);
        if constexpr (sub == kSubs - 1) st.advance();
      };
      for (int kss = kss0; kss < kss_end; kss += 2) {
        stage(std::integral_constant<int, 0>{}, kss);
        if (kss + 1 < kss_end) stage(std::integral_constant<int, 1>{}, kss + 1);
        else if constexpr (kSubs == 2) st.advance();  // (the tail stage of one sub-stage)
      }
      ptx::wgmma_wait<0>();
      promote_blocks(st.behind(1), (kss_end - 1) % kSubs, kss_end - 1);
      release_previous_stage();
    };

      // (kSplitK: local sub-stages, from 0.)
      if constexpr (kCodes)
        mainloop_codes(kSplitK ? 0 : work.ks0, work.ks_end);
      else
        mainloop_values(kSplitK ? 0 : work.ks0, work.ks_end, kInterleaves ? work.step : 1);
  };

  // ---- fixup of a partial tile (stream-K) ---------------------------------------------------
  // Publishes this CTA's partial of stream-K tile t; the last of the tile's CTAs to arrive
  // sums all of them into `sum` and returns true (it stores the tile), the others false.
  // A part that needs the exact path counts kExactArrival on the tile's counter, which sets
  // `exact` for the storing CTA instead of the sum.
  //
  // A start part (stages from 0: this CTA is the tile's first, c_lo, and runs it as its last
  // item) of a tile in two parts usually finds the other part published long before: the CTA
  // after it ran that part as its first item. Math thread 0 then reads the counter first, and
  // if the other part is in, this CTA skips publishing its own partial (its stores, a fence and
  // the atomic: L2 round trips under full HBM load) and sums from its registers; the producer
  // has prefetched the other partial into L2 (above). The sum is the same sequence of additions
  // either way, so the bits do not depend on which path ran. (With three or more parts the
  // middle ones end with the kernel too, and the early read would mostly be one more round
  // trip.)
  auto fixup_partial_tile = [&](int t, bool start_part, float (&sum)[Cfg::kAccRegs], bool& exact) -> bool {
    const int slot_size = Cfg::kBlockN * kMPad;
    float* mine = p.partials + static_cast<std::int64_t>(sched.partial_slot(cta, t)) * slot_size;
    auto publish = [&] {
#pragma unroll
      for (int r = 0; r < Cfg::kAccRegs; ++r) __stcg(mine + r * Cfg::kMathThreads + math_tid, sum[r]);
    };
    if (sched.split_reduce) {  // the reduction kernel sums and stores the tile
      publish();
      if (exact && math_tid == 0) p.tile_exact[t] = p.exact_generation;
      return false;
    }
    const int c_lo = sched.first_cta(t), c_hi = sched.last_cta(t);
    // Sets smem.last_arrival from the counter's value `before` this CTA's arrival.
    auto arrival = [&](unsigned int before) {
      const bool last = before % kExactArrival == static_cast<unsigned int>(c_hi - c_lo);
      if (last) p.tile_counters[t] = 0;  // ready for the next launch
      smem.last_arrival = !last ? 0 : (exact || before >= kExactArrival ? 2 : 1);
    };
    bool published = true;
    if (start_part && c_hi == c_lo + 1 && p.early_fixup != detail::StreamEarlyFixup::Never) {
      if (math_tid == 0) {
        unsigned int before = ptx::ld_acquire_gpu(&p.tile_counters[t]);
        // (Always, for tests: the other part's CTA, resident with this one, publishes its first
        // item without waiting on anything.)
        while (p.early_fixup == detail::StreamEarlyFixup::Always && before % kExactArrival == 0) {
          __nanosleep(256);
          before = ptx::ld_acquire_gpu(&p.tile_counters[t]);
        }
        arrival(before);
      }
      ptx::named_barrier_sync(1, Cfg::kMathThreads);
      published = smem.last_arrival == 0;
    }
    if (published) {
      publish();
      __threadfence();  // the partial is visible device-wide before the count says so
      ptx::named_barrier_sync(1, Cfg::kMathThreads);  // (also: every math thread has read smem.last_arrival)
      if (math_tid == 0) arrival(atomicAdd(&p.tile_counters[t], exact ? kExactArrival + 1u : 1u));
      ptx::named_barrier_sync(1, Cfg::kMathThreads);
    }
    if (smem.last_arrival != 1) {
      exact = smem.last_arrival == 2;
      return exact;
    }
    __threadfence();
    if constexpr (Cfg::kMathWarpgroups == 2) {
      if (c_hi - c_lo == 1) {
        // Two parts (halves of a tile's K): the other's partial is added to this CTA's own, in
        // registers; fp32 addition is commutative, so the sum is the same whichever finished
        // last. (In the four-warpgroup shapes this path made ptxas spill around the fixup.)
        const float* other =
            p.partials + static_cast<std::int64_t>(sched.partial_slot(cta == c_lo ? c_hi : c_lo, t)) * slot_size;
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; ++r) sum[r] += __ldcg(other + r * Cfg::kMathThreads + math_tid);
        return true;
      }
    }
    // Partials are added in CTA order, so the sum does not depend on which CTA finished
    // last; a published partial of this CTA's own is re-read from its slot (its registers now
    // hold the sum), an unpublished one (then this CTA is c_lo) is the first term, from its
    // registers. Per chunk of kFixupChunk accumulators, kFixupBatch CTAs' partials are read
    // per L2 round trip.
    const int c_first = published ? c_lo : c_lo + 1;
#pragma unroll
    for (int r0 = 0; r0 < Cfg::kAccRegs; r0 += Cfg::kFixupChunk) {
#pragma unroll
      for (int r = 0; r < Cfg::kFixupChunk; ++r) sum[r0 + r] = published ? 0.0f : 0.0f + sum[r0 + r];
      for (int c0 = c_first; c0 <= c_hi; c0 += Cfg::kFixupBatch) {
        float v[Cfg::kFixupBatch][Cfg::kFixupChunk];
#pragma unroll
        for (int b = 0; b < Cfg::kFixupBatch; ++b) {
          if (c0 + b > c_hi) continue;
          const float* part =
              p.partials + static_cast<std::int64_t>(sched.partial_slot(c0 + b, t)) * slot_size;
#pragma unroll
          for (int r = 0; r < Cfg::kFixupChunk; ++r)
            v[b][r] = __ldcg(part + (r0 + r) * Cfg::kMathThreads + math_tid);
        }
#pragma unroll
        for (int b = 0; b < Cfg::kFixupBatch; ++b) {
          if (c0 + b > c_hi) continue;
#pragma unroll
          for (int r = 0; r < Cfg::kFixupChunk; ++r) sum[r0 + r] += v[b][r];
        }
      }
    }
    return true;
  };

  // ---- paired halves: the tile's two CTAs are a cluster (StreamSchedule::paired) ---------------
  // Each CTA finishes and stores half of the tile's activation rows: rank 0 the first kMPad / 2
  // (accumulator registers [0, kAcc / 2)), rank 1 the rest. Each leaves the half the other
  // finishes, and its exact verdict, in its own shared memory, over the activation stages it no
  // longer needs; after a cluster barrier each adds the other's half to its own through
  // distributed shared memory (the same two partials in either order: the same bits every run),
  // with its own half first moved into registers [0, kAcc / 2). A second cluster barrier keeps
  // the shared memory alive until both have read. Half the exchange and half the store of a
  // one-sided hand-off. Only the math threads are left to arrive by then: the producer
  // warpgroups have exited, and exited threads do not hold a cluster barrier. Returns the half.
  auto pair_exchange = [&](float (&sum)[Cfg::kAccRegs], bool& exact) -> int {
    constexpr int kHalf = Cfg::kAccRegs / 2;
    static_assert(!kInterleaves || (kHalf % 4 == 0 && kHalf * Cfg::kMathThreads * 4 <= Cfg::kStages * Cfg::kStageBytesX),
                  "a half partial fits the activation stages");
    float* buf = reinterpret_cast<float*>(smem.x[0]);
    // (The caller's named_barrier_or: every math warp's wgmmas on those stages are complete.)
    const bool second = ptx::cluster_ctarank() == 1;
    auto send = [&](int r0) {
#pragma unroll
      for (int r = 0; r < kHalf; r += 4)
        *reinterpret_cast<float4*>(buf + ((r / 4) * Cfg::kMathThreads + math_tid) * 4) =
            make_float4(sum[r0 + r], sum[r0 + r + 1], sum[r0 + r + 2], sum[r0 + r + 3]);
    };
    if (second) {
      send(0);
#pragma unroll
      for (int r = 0; r < kHalf; ++r) sum[r] = sum[r + kHalf];
    } else {
      send(kHalf);
    }
    if (math_tid == 0) smem.pair_exact = exact ? 1 : 0;
    ptx::cluster_sync();
#if MXGEMM_TRACE_ON
    if (math_tid == 0) MXGEMM_TRACE_ADD(kTrPairSyncNs, MXGEMM_TRACE_NOW() - trace_loop_end);
#endif
    const std::uint32_t peer_rank = second ? 0u : 1u;
    const std::uint32_t peer = ptx::cluster_smem_addr(buf, peer_rank) + math_tid * 16;
#pragma unroll
    for (int r = 0; r < kHalf; r += 4) {
      const float4 v = ptx::ld_shared_cluster_v4(peer + (r / 4) * Cfg::kMathThreads * 16);
      sum[r] += v.x;
      sum[r + 1] += v.y;
      sum[r + 2] += v.z;
      sum[r + 3] += v.w;
    }
    exact = exact || ptx::ld_shared_cluster_u32(ptx::cluster_smem_addr(&smem.pair_exact, peer_rank)) != 0;
    ptx::cluster_sync();
#if MXGEMM_TRACE_ON
    if (math_tid == 0) MXGEMM_TRACE_ADD(kTrPairDoneNs, MXGEMM_TRACE_NOW() - trace_loop_end);
#endif
    return second ? 1 : 0;
  };

  // ---- K-split clusters: the cluster sums and stores the tile (split_cluster_store) ----------
  // Each CTA's sum of the tile, left by the kTileThreads math threads that hold it
  // (leave_tile_sum) in the activation stages, whose wgmmas are complete by then. A tile that
  // any CTA of the cluster needs the exact path for is listed once, by rank 0.
  float* const cluster_tile_sum = reinterpret_cast<float*>(smem.x[0]);
  auto store_in_cluster = [&](auto tile_threads_c, int tile_index, int m0, int n0, bool exact) {
    constexpr int kTileThreads = decltype(tile_threads_c)::value;
    static_assert(kTileThreads * Cfg::kAccRegs * 4 <= Cfg::kStages * Cfg::kRingBytesX, "a tile's sum fits the activation stages");
    const bool cluster_exact =
        split_cluster_store<Cfg::kAccRegs, kTileThreads>(p, cluster_tile_sum, &smem.split_exact, exact, alpha, m0, n0,
                                                         math_tid, Cfg::kMathThreads);
    if (cluster_exact && math_tid == 0 && sched.split_rank(cta) == 0)
      p.exact_tiles[static_cast<std::int64_t>(cta) * p.exact_tiles_per_cta + smem.exact_count++] = tile_index;
  };

  walk_work<kInterleaves, kSplitK || kSplitClusters, kSplitClusters>(sched, cta, ctas, [&](const StreamWork& work) {
    const StreamTile tile = sched.coord(work.tile);
    outside_window = false;
    outside_bits = 0;
    if constexpr (Cfg::kPromoteInSmem) {
#pragma unroll
      for (int i = 0; i < Cfg::kAccRegs; ++i) promoted[i * Cfg::kMathThreads] = 0.0f;
    } else if constexpr (Cfg::kPromoteInRegisters) {
#pragma unroll
      for (int i = 0; i < Cfg::kAccRegs; ++i) result[i] = 0.0f;
    }
    item_promoted = false;
    // The pre-pass's mark of this thread's activation row (MXFP8). The two-warpgroup tiles load it
    // before the mainloop: after it, its L2 round trip lay on every tile's way to the store (H100,
    // session 48, trace build: mainloop end to store, summed over a CTA's tiles, MXFP8 4096 x
    // 8192^2 10.4 -> 5.1 us, 128 / 256 x 8192^2 3.2 / 4.5 -> 2.8 / 4.1). The four-warpgroup ones
    // load it after the loop: held through it, the mark made ptxas spill 4-16 bytes more there.
    constexpr bool kMarkFirst = Cfg::kMathWarpgroups == 2;
    bool has_mark = false;
    unsigned int x_row_mark = 0;
    if constexpr (kMarkFirst) {
      const int m = tile.m * kMPad + math_tid;
      has_mark = p.x_exact_rows != nullptr && math_tid < kMPad && m < p.m;
      if (has_mark) {
        ptx::griddepcontrol_wait();
        x_row_mark = p.x_exact_rows[m];
      }
    }
    if constexpr (kSplitK) {
      // (The tests by warp vote: a uniform predicate, so that ptxas keeps each copy's loop in
      // the uniform datapath as in one warp-uniform branch.)
      if (__all_sync(0xFFFFFFFFu, part == 0)) {
        run_mainloop(std::integral_constant<int, 0>{}, work);
      } else if constexpr (Cfg::kQuarters == 2) {
        run_mainloop(std::integral_constant<int, 1>{}, work);
      } else {
        static_assert(Cfg::kQuarters == 4, "two or four parts a ring stage");
        if (__all_sync(0xFFFFFFFFu, part == 1)) run_mainloop(std::integral_constant<int, 1>{}, work);
        else if (__all_sync(0xFFFFFFFFu, part == 2)) run_mainloop(std::integral_constant<int, 2>{}, work);
        else run_mainloop(std::integral_constant<int, 3>{}, work);
      }
    } else {
      run_mainloop(std::integral_constant<int, 0>{}, work);
    }

    const int m0 = tile.m * kMPad, n0 = tile.n * Cfg::kBlockN + warp_row0;
    float (&sum)[Cfg::kAccRegs] = total;
    // Whether the item needs the exact path: any math thread's weight rows, or an activation
    // row the pre-pass marked (written before this kernel's dependency wait returns).
    bool exact = (outside_window || outside_bits != 0) && rows_need_exact(tile.n, work.ks0, work.ks_end);
    if constexpr (kMarkFirst) {
      exact |= has_mark && x_row_mark == p.exact_generation;
    } else if (p.x_exact_rows != nullptr && math_tid < kMPad) {
      ptx::griddepcontrol_wait();
      const int m = m0 + math_tid;
      exact |= m < p.m && p.x_exact_rows[m] == p.exact_generation;
    }
    exact = ptx::named_barrier_or(1, Cfg::kMathThreads, exact);
#if MXGEMM_TRACE_ON
    if (math_tid == 0) MXGEMM_TRACE_ADD(kTrBarrierNs, MXGEMM_TRACE_NOW() - trace_loop_end);
#endif
    if constexpr (kSplitK) {
      // The parts' sums: warpgroups 1.. leave theirs in the weight stages (every math warp is
      // past its last stage: the barrier above), warpgroup 0 adds them in that order (the same
      // bits every run) and stores the tile.
      float* buf = reinterpret_cast<float*>(smem.w[0]);
      static_assert(Cfg::kAccRegs % 4 == 0 &&
                        (Cfg::kQuarters - 1) * 128 * Cfg::kAccRegs * 4 <= Cfg::kStages * Cfg::kStageBytesW,
                    "the other warpgroups' sums fit the weight stages");
      auto at = [&](int from, int r) { return (((from - 1) * Cfg::kAccRegs / 4 + r / 4) * 128 + math_tid % 128) * 4; };
      if (part != 0) {
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; r += 4)
          *reinterpret_cast<float4*>(buf + at(part, r)) = make_float4(sum[r], sum[r + 1], sum[r + 2], sum[r + 3]);
      }
      ptx::named_barrier_sync(1, Cfg::kMathThreads);
      auto add_other_parts = [&] {
#pragma unroll
        for (int from = 1; from < Cfg::kQuarters; ++from) {
#pragma unroll
          for (int r = 0; r < Cfg::kAccRegs; r += 4) {
            const float4 v = *reinterpret_cast<const float4*>(buf + at(from, r));
            sum[r] += v.x;
            sum[r + 1] += v.y;
            sum[r + 2] += v.z;
            sum[r + 3] += v.w;
          }
        }
      };
      if constexpr (kSplitClusters) {
        // A cluster's CTAs each hold their range's sum: warpgroup 0 adds it up and leaves it
        // (every wgmma on the activation stages is complete: the barrier above).
        if (__all_sync(0xFFFFFFFFu, part == 0)) {
          add_other_parts();
          leave_tile_sum<Cfg::kAccRegs, 128>(cluster_tile_sum, sum, math_tid);
        }
        store_in_cluster(std::integral_constant<int, 128>{}, work.tile, m0, tile.n * Cfg::kBlockN, exact);
        return;
      } else {
        // (A warp-vote test: a return ptxas sees as divergent would take the loops of the next
        // work item out of the uniform datapath: 296 -> 350 SASS a 32-row loop.)
        if (__all_sync(0xFFFFFFFFu, part != 0)) return;
        add_other_parts();
      }
    }
    if constexpr (kSplitClusters && !kSplitK) {
      // The two-warpgroup tiles in clusters: every math thread holds part of the range's sum
      // (its wgmmas are complete: the barrier above).
      leave_tile_sum<Cfg::kAccRegs, Cfg::kMathThreads>(cluster_tile_sum, sum, math_tid);
      store_in_cluster(std::integral_constant<int, Cfg::kMathThreads>{}, work.tile, m0, tile.n * Cfg::kBlockN, exact);
      return;
    }
    // A partial tile is stored by the last of its CTAs, once it has summed the partials (or,
    // paired, half of it by each); one call site of each store (their copies per output type
    // are large: instruction cache). The rows this CTA stores: all of the tile's, or one half.
    int m_store = m0, m_rows = kMPad, pair_half = 0;
    if (!kSplitK && !work.whole(sched.k_stages)) {
      const bool start_part = work.ks0 == 0 && work.step == 1;
      bool stores;
      if constexpr (kInterleaves) {
        if (sched.paired) {
          pair_half = pair_exchange(sum, exact);
          m_store = m0 + pair_half * (kMPad / 2);
          m_rows = kMPad / 2;
          stores = true;
        } else {
          stores = fixup_partial_tile(work.stream_tile, start_part, sum, exact);
        }
      } else {
        stores = fixup_partial_tile(work.stream_tile, start_part, sum, exact);
      }
      if (!stores) return;
    }
    // 16-bit outputs go through the staging rows where the tile shape has them; the rest
    // (FP32, unaligned D) are stored straight from the registers. The staged store runs for a
    // tile of the exact path too, writing nothing: its barriers and stmatrix must not sit behind
    // a branch ptxas cannot see is uniform (`exact` comes from a barrier reduction), which made
    // it move the mainloop's barrier addresses and wgmma descriptors out of uniform registers
    // (64 x 8192 x 8192: 34.5 -> 37.5 us on the H200).
#if MXGEMM_TRACE_ON
    if (math_tid == 0) MXGEMM_TRACE_ADD(kTrPreStoreNs, MXGEMM_TRACE_NOW() - trace_loop_end);
#endif
    if constexpr (kF16X && kPermutedX) {
      ptx::griddepcontrol_wait();  // (the pre-pass wrote the row scales; long complete by now)
      scale_activation_rows(sum, p.x_row_scale, m_store, p.m, lane);
    }
    bool staged = false;
    if constexpr (Cfg::kStagedStore) {
      staged = staged_store_fits(p);
      if (staged) {
        const int n0_tile = tile.n * Cfg::kBlockN;
        const int rounds = m_rows / kStagedRows;
        if (Cfg::kStagedByTma && p.d_by_tma) {
          if constexpr (Cfg::kStagedByTma) {
            if (p.out.d_dtype == DType::BF16)
              store_staged_tma<__nv_bfloat16, Cfg::kAccRegs, Cfg::kBlockN, Cfg::kMathThreads, Cfg::kStagedTmaBuffers>(
                  p, sum, alpha, m_store, n0_tile, warp_row0, lane, math_tid, smem.out_stage, 1, exact, rounds);
            else
              store_staged_tma<__half, Cfg::kAccRegs, Cfg::kBlockN, Cfg::kMathThreads, Cfg::kStagedTmaBuffers>(
                  p, sum, alpha, m_store, n0_tile, warp_row0, lane, math_tid, smem.out_stage, 1, exact, rounds);
          }
        } else if (p.out.d_dtype == DType::BF16) {
          store_staged<__nv_bfloat16, Cfg::kAccRegs, Cfg::kBlockN, Cfg::kMathThreads>(
              p, sum, alpha, m_store, n0_tile, warp_row0, lane, math_tid, smem.out_stage, 1, exact, rounds);
        } else {
          store_staged<__half, Cfg::kAccRegs, Cfg::kBlockN, Cfg::kMathThreads>(
              p, sum, alpha, m_store, n0_tile, warp_row0, lane, math_tid, smem.out_stage, 1, exact, rounds);
        }
      }
    }
    if (exact) {  // listed for after the loop (math thread 0 keeps the list; of a pair, rank 0's)
      if (math_tid == 0 && pair_half == 0) p.exact_tiles[static_cast<std::int64_t>(cta) * p.exact_tiles_per_cta + smem.exact_count++] = work.tile;
      return;
    }
    if (!staged) {
      // (Without interleaving the rows are the whole tile's: the four-warpgroup kernels keep
      // the code they were measured with.)
      if constexpr (kInterleaves)
        store_tile_transposed(p, sum, alpha, m_store, n0, lane, m_store + m_rows < p.m ? m_store + m_rows : p.m);
      else store_tile_transposed(p, sum, alpha, m0, n0, lane);
    }
#if MXGEMM_TRACE_ON
    if (math_tid == 0) {
      const unsigned long long now = MXGEMM_TRACE_NOW();
      if (trace_items == 1) MXGEMM_TRACE_SET(kTrFirstStored, now);
      MXGEMM_TRACE_ADD(kTrEpilogueNs, now - trace_loop_end);
    }
#endif
  });
#if MXGEMM_TRACE_ON
  if (math_tid == 0) {
    MXGEMM_TRACE_SET(kTrEnd, MXGEMM_TRACE_NOW());
    MXGEMM_TRACE_SET(kTrStages, trace_stages);
    MXGEMM_TRACE_SET(kTrItems, trace_items);
    MXGEMM_TRACE_SET(kTrMathWaitNs, trace_math_wait);
  }
#endif

  // The staged store's last TMA writes of D, complete before the grid is.
  if constexpr (Cfg::kStagedByTma) {
    if (math_tid == 0 && p.d_by_tma) ptx::bulk_wait_group<0>();
  }

  // ---- the exact path, for the tiles listed above ---------------------------------------------
  // After the loop, where none of its registers are live: inside it, the exact path's code
  // made ptxas spill the mainloop's pinned offsets (6 reloads a stage at kMPad = 32).
  ptx::named_barrier_sync(1, Cfg::kMathThreads);  // math thread 0's list is visible
  const int exact_count = smem.exact_count;
  for (int i = 0; i < exact_count; ++i) {
    const StreamTile tile = sched.coord(p.exact_tiles[static_cast<std::int64_t>(cta) * p.exact_tiles_per_cta + i]);
    const int m0 = tile.m * kMPad, n0 = tile.n * Cfg::kBlockN;
    exact_outputs(p.exact, p.out, m0, p.m - m0 < kMPad ? p.m - m0 : kMPad, n0,
                  p.n - n0 < Cfg::kBlockN ? p.n - n0 : Cfg::kBlockN, math_tid, Cfg::kMathThreads);
  }
#if MXGEMM_TRACE_ON
  if (lane == 0) MXGEMM_TRACE_MAX(kTrLastExit, MXGEMM_TRACE_NOW());
#endif
#else
  // Built for another architecture: the launcher only dispatches here on sm_90a.
  if (threadIdx.x == 0) __trap();
#endif
}

}  // namespace mxgemm::sm90
