// Tile, pipeline and work-split constants of the sm_90a weight-streaming MXFP8 GEMM for small
// M (stream_gemm_kernel.cuh; docs/streaming-kernel.md explains the choices).
#pragma once

#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/stream_epilogue.cuh"  // kStagedBytes
#include "cuda/sm90/stream_schedule.hpp"  // stream_sub_stages

namespace mxgemm::sm90 {

template <int kMPad_, bool kCodes_ = false, bool kSplitK_ = false>
struct StreamGemmConfig {
  // Activation rows per CTA, padded: the N of the m64nNk16 wgmma (D^T = W x X^T).
  static constexpr int kMPad = kMPad_;
  // How the operands reach the tensor cores.
  //  false: bf16 values: the caller's bf16 activation read in place by TMA (weight-only, the
  //         natural K order), or an MXFP8 activation dequantized by a pre-pass into the
  //         permuted K order of mainloop.cuh (the kernel's kPermutedX: the weight fragment
  //         then takes four 8-byte loads a stage instead of sixteen 2-byte ones). The weight
  //         is dequantized (code * scale) into the bf16 fragment; a stage pair is summed per
  //         promotion.
  //  true:  fp16 codes in the permuted K order of mainloop.cuh, written by a pre-pass.
  //         Both operands enter as their exact fp16 codes, one fresh fp16 wgmma
  //         accumulator per 32-wide scale block, and the product of the two block scales is
  //         applied once per accumulator (FMUL + FFMA). For narrow activations that is a
  //         quarter of the per-element dequantization work, which bounds the issue rate;
  //         it needs MX activations (codes + scales) and registers for two partials.
  static constexpr bool kCodes = kCodes_;
  // Whether the math threads watch the weight's scale bytes for the exact path (the kernel's
  // top comment): every form but the 16-row codes form, where the watch made ptxas spill in
  // the loop (16 x 28672 x 8192 71 -> 82 us on the H200, session 18). So that form runs MXFP8
  // activations only, and BF16 ones take the values form from 9 rows.
  static constexpr bool kWatchesWeight = !kCodes || kMPad == 8;
  // Whether the codes form decodes the weight's scale bytes by a shift (fragment_scales): on
  // the H200, same run, three rounds (session 18), weight-only 1 / 8 x 28672 x 8192 68.6-69.4 /
  // 70.1-70.9 -> 67.5-67.7 / 69.4-70.3 us in the 8-row form, but MXFP8 12 / 16 x 28672 x 8192
  // 71.3-72.0 / 71.6-71.7 -> 73.4-74.0 / 73.0-73.3 in the 16-row one, which keeps the select.
  static constexpr bool kShiftDecodesScales = kCodes && kMPad == 8;
  // Each math warpgroup works through one stage as a chain (wait for its wgmmas, dequantize,
  // issue the next), so a CTA needs several of them to keep HBM busy; narrow activations
  // leave the registers for four, the wide ones for two.
  static constexpr int kMathWarpgroups = kMPad <= 32 ? 4 : 2;
  // K split among the warpgroups (where the weight's tiles of 64 rows about fill the SMs: N =
  // 8192 on 132, or do in clusters): a tile is 64 weight rows over the whole K, one a CTA; each
  // ring stage holds kQuarters consecutive 128-K parts of it (one a math warpgroup: four up to
  // 32 activation rows, two for 64), warpgroup w runs part w, and the sums are added in shared
  // memory at the end. No stream-K parts and no reduction kernel: at 8192^2 the split
  // reduction's kernel took ~5 us of ~31 (H200, session 22, bench/results/s22/b2), and a TMA ring
  // streamed 64-row tiles over the whole K in 22.3 us against 23.9 for 256-row tiles in K
  // quarters (same run).
  static constexpr bool kSplitK = kSplitK_;
  static constexpr int kQuarters = kSplitK ? split_k_parts(kMPad) : 1;  // 128-K parts of a ring stage
  static constexpr int kBlockN = kSplitK ? kSplitKRowsPerTile : 64 * kMathWarpgroups;  // weight rows per tile
  static constexpr int kScaleChunks = kSplitK ? kQuarters : kBlockN / 128;  // 128-row scale chunks per ring stage
  static constexpr int kMathThreads = 128 * kMathWarpgroups;
  // The first of the tile's weight rows that math thread `math_tid`'s warp holds (16 rows a
  // warp, the M of the wgmma's warp slice; with kSplitK every warpgroup holds the tile's 64).
  __host__ __device__ static constexpr int warp_row0(int math_tid) {
    return (kSplitK ? math_tid % 128 : math_tid) / 32 * 16;
  }
  static constexpr int kThreads = 128 + kMathThreads;  // producer warpgroup + math
  // K of one ring stage, in 64-K sub-stages (the math's unit: a 64-byte fp8 row, four k16
  // steps, two scale blocks). Up to 128 activation rows the weight streams as 128-byte rows,
  // one TMA box of kBlockN x 128 bytes (128B swizzle) a stage. In the TMA ring spike with a
  // 16-row activation and L2 evict_first, 8192 x 28672 streamed in 66.9 us against 72.7 for
  // 64-byte rows, 28672 x 8192 in 66.7 against 72.1, 8192^2 in 23.5 against 26.2 (H200, same
  // run, bench/results/s20/b2); in the kernel, same runs (b3-b5), e.g. weight-only 16 x 28672
  // x 8192 73.3-74.1 -> 69.9-70.2 us, MXFP8 64 x 28672 x 8192 95.7-96.2 -> 87.5-88.2, 128 x
  // 8192^2 38.9 -> 37.3-37.6. 256-row tiles keep 64-K stages: two of 80 KB would not hide
  // HBM latency.
  static constexpr int kSubStages = stream_sub_stages(kMPad, kCodes);
  static constexpr int kRingK = kStageK * kSubStages;
  static_assert(kStageK == kStreamSubStageK, "stream_k_stages counts the sub-stages of mainloop.cuh");
  static constexpr int kWeightRowBytes = kRingK;  // a weight row of a stage: 64B or 128B swizzled
  static constexpr int kPartBytesW = kBlockN * kRingK;           // fp8 weight rows of one part (one TMA box)
  static constexpr int kStageBytesW = kQuarters * kPartBytesW;   // of a ring stage
  static constexpr int kSubStageBytesX = kMPad * kStageK * 2;  // bf16 values or fp16 codes, one sub-stage
  static constexpr int kStageBytesX = kSubStageBytesX * kSubStages;  // of one 128-K part
  static constexpr int kRingBytesX = kStageBytesX * kQuarters;       // of a ring stage
  // Codes form: the activation's fp32 block scales of the stage, [2 kSubStages blocks][kMPad],
  // as TMA moves them (kSxBoxBytes) and in shared memory, padded to the 128-byte alignment of
  // a TMA destination (kSxSmemFloats per stage).
  static constexpr int kSxBlocks = 2 * kSubStages;
  static constexpr int kSxBoxBytes = kCodes ? kSxBlocks * kMPad * 4 : 0;
  static constexpr int kSxSmemFloats = kCodes ? (kSxBlocks * kMPad + 31) / 32 * 32 : 1;  // a part's
  static constexpr int kRingSxFloats = kSxSmemFloats * kQuarters;
  // Bytes one stage's barrier expects, and a ring stage's shared memory.
  static constexpr int kStageBytes = kStageBytesW + kRingBytesX + kQuarters * kSxBoxBytes;
  static constexpr int kRingStageSmem = kStageBytesW + kRingBytesX + kRingSxFloats * 4 + kScaleChunks * 512;
  // Weight scale blocks of a ring stage.
  static constexpr int kBlocksPerStage = kQuarters * kRingK / 32;
  // 64-K stages: as deep as shared memory allows, up to 8 (each SM keeps 64 KB or more of
  // weights in flight, which HBM needs to stream at full rate). 128-K stages: 4, faster than
  // 5 in the ring spike (bench/results/s20/b2) and than 5 and 3 in the kernel (H200, MXFP8
  // 16 x 8192 x 28672: 70.9-71.0 us at 4 against 73.0-73.1 at 5 in one run, b3; 70.8-70.9 at
  // 4 against 72.5 at 3 in another, b4).
  // kSplitK: as many ring stages (each kQuarters 128-K parts) as fit, up to 4: 3 at 32 rows.
  // The 192- and 256-row tiles (kPromoteInGlobal) keep one stage fewer than fits (5 and 4), for
  // the high parts of their promoted sums (kPromotedHiWords): on an H100 (sessions 58-59) 4
  // stages at 256 rows ran level with 5, and 5 at 192 rows level with 6; at K = 8192, where
  // nothing promotes, weight-only ran level with session 59's five-stage build in five
  // alternated rounds, MXFP8 about 1% slower (session 61). A ring over every slot where no item
  // promotes (a run-time ring size) ran 0.7-1.7% slower in weight-only (session 61).
  static constexpr bool kPromoteInGlobal = kMPad > 128;
  static constexpr int kStages = kSplitK ? ((200 * 1024) / kRingStageSmem < 4 ? (200 * 1024) / kRingStageSmem : 4)
                                 : kSubStages == 2 ? 4
                                 : kPromoteInGlobal ? (200 * 1024) / kStageBytes - 1
                                 : (200 * 1024) / kStageBytes < 8 ? (200 * 1024) / kStageBytes : 8;
  // Up to 128 activation rows, each group of 8 stages (512 K) is summed in a fresh wgmma
  // accumulator and added into a second set of registers with ordinary fp32 adds (the
  // tiled kernel's lesson: the tensor core's accumulation is not round-to-nearest and drifts
  // over long K). 192 and 256 rows need their registers for the accumulator (kPromoteInGlobal).
  // The split's values forms (kSplitValues) promote in registers too, every 512 K of a
  // warpgroup's part, and hold two fragments (below): with the split's own one-item walk
  // (walk_work) the registers are there, and ptxas no longer serializes their wgmmas.
  static constexpr bool kSplitValues = kSplitK_ && !kCodes_;
  static constexpr bool kPromoteInRegisters = kMPad <= 128;
  // 192 and 256 rows have no registers for a promoted sum. Every p.promote_stages sub-stages,
  // as many as the output type's bars allow in one chain (unpromoted_chain_k in
  // stream_schedule.hpp; without a promotion, tiles dealt whole chained all of K and missed the
  // bars beyond K = 2048..8192: session 23, GpuStreamGemm.WholeTilesOfLongKMatchReference prints
  // the margins), each thread splits its running sum t = hi + accumulator (fp32) into a high
  // part, t rounded toward zero to bf16, kept in shared memory (kPromotedHiWords words a thread,
  // two bf16 each), and the exact rest t - hi, left in the accumulator, on which the next chain
  // goes on. A chain thus starts from a value below 2^-7 of the sum, as a fresh one starts from
  // zero, and the sum keeps one fp32 rounding a promotion, as before. Accumulators past
  // 2 kPromotedHiWords (256 rows: the shared memory holds 60 of 64 words) keep the earlier
  // scheme: their chain's sum goes to a slot a CTA in global memory (L2; stored, then added by
  // red.add in program order: the same bits every run) and they restart from zero. Until
  // session 60 every accumulator went there: 128 KB leaving the SM a promotion, 6-8% of the
  // time at K = 28672 (H100, session 59).
  static constexpr int kStagesPerPromotion = 8;
  // The 16-row values form (BF16 activations of 9..16 rows) keeps that fp32 sum in shared
  // memory (a thread's own column of kAccRegs floats, touched once per promotion), which frees
  // the registers for a second fragment (below). On the H200, same run, two rounds (session
  // 21, bench/results/s21/b2): weight-only 9 / 16 x 28672 x 8192 70.8-71.0 / 70.9-71.1 ->
  // 68.9-69.1 / 69.6-69.8 us, 16 x 8192 x 28672 72.7-72.8 -> 71.6-71.7. At 32 rows the same
  // change was 0-2.5% slower (MXFP8 32 x 8192 x 28672 76.0-76.7 -> 77.8-78.8), so it stays there.
  static constexpr bool kPromoteInSmem = !kCodes && kMPad == 16 && !kSplitValues;
  // Values form: fragments in registers. Two let a warpgroup convert the next stage while
  // its previous wgmmas run; the other four-warpgroup shapes have no registers for the second
  // (the stream-K walk's state takes them).
  static constexpr int kValueFragments = kMathWarpgroups == 2 || kPromoteInSmem || kSplitValues ? 2 : 1;
  static constexpr int kAccRegs = kMPad / 2;
  // kPromoteInGlobal: bf16 pairs of high parts a thread keeps in shared memory (whole 16-byte
  // groups), and the accumulators they cover; the rest promote into the slot.
  static constexpr int kPromotedHiWords = !kPromoteInGlobal ? 0 : kMPad == 256 ? 60 : kAccRegs / 2;
  static constexpr int kPromotedHiAcc = 2 * kPromotedHiWords;
  static constexpr int kPromotedHiBytes = kPromotedHiWords * 4 * kMathThreads;
  // Whether accumulators are left for the global slot (256 rows; the 192-row tiles have none).
  static constexpr bool kPromotesIntoSlot = kPromoteInGlobal && kPromotedHiAcc < kAccRegs;
  // kPromotesIntoSlot: a CTA's slot of the promoted sum, the accumulators past the high parts,
  // [(kAccRegs - kPromotedHiAcc) / 4][kMathThreads] float4s (8 KB at 256 rows).
  static constexpr int kPromotedSlotFloats = kPromotesIntoSlot ? kMathThreads * (kAccRegs - kPromotedHiAcc) : 0;
  // Partial tiles read per L2 round trip in the stream-K fixup, as many as the registers
  // left at that point hold without spilling (measured with ptxas): a tile split over 16 CTAs
  // took 16 serial round trips (~1 us each) at one a time.
  static constexpr int kFixupRegs = kMathWarpgroups == 4 ? 32 : 64;
  // Accumulator registers summed per pass over the partials (all of them unless that would
  // need more than kFixupRegs more registers for the loads: then 64, or 48 for the 96 of 192
  // rows), and partials read per pass.
  static constexpr int kFixupChunk = kAccRegs <= 64 ? kAccRegs : kAccRegs % 64 == 0 ? 64 : 48;
  static constexpr int kFixupBatch = kFixupRegs / kFixupChunk < 1 ? 1 : (kFixupRegs / kFixupChunk > 4 ? 4 : kFixupRegs / kFixupChunk);
  // The producer thread's loop lives in uniform registers: 24 suffice for four math
  // warpgroups, which then get 112. At 104 (producer 40) ptxas rematerialized the codes
  // form's fragment offsets every stage (m16: 332 SASS a loop of 2 stages, 72 bytes spilled;
  // at 112: 277, none): 16 x 28672 x 8192 80.9 -> 74.8 us on the H200 (session 9).
  static constexpr int kProducerRegs = kMathWarpgroups == 4 ? 24 : 40;
  static constexpr int kMathRegs = kMathWarpgroups == 4 ? 112 : 232;
  // setmaxnreg only moves registers within what the CTA was launched with: the compile-time
  // per-thread cap (65536 / kThreads, in multiples of 8) times kThreads. Asking for more
  // blocks the math warps forever (4 warpgroups at 112 registers with a 40-register
  // producer did).
  static constexpr int kLaunchRegs = (65536 / kThreads) / 8 * 8;
  static constexpr int kRegisterBudget = kProducerRegs * 128 + kMathRegs * kMathThreads;
  // The staged store of 16-bit outputs (store_staged): the two-warpgroup tiles, whose direct
  // store was 6% of a large GEMM. (The four-warpgroup ones keep the direct store: small
  // tiles, no registers to spare.)
  // (kSplitK: warpgroup 0 alone holds the tile's sum, and stores it directly.)
  static constexpr bool kStagedStore = kMathWarpgroups == 2 && !kSplitK;
  // TMA writes the staged rows (store_staged_tma) in the 192- and 256-row tiles, where it was
  // measured (session 48). In the 128-row MXFP8 tile it put two spill reloads into the mainloop
  // (cuobjdump), so the 64- and 128-row tiles keep the threads' store and their code.
  static constexpr bool kStagedByTma = kStagedStore && kMPad >= 192;
  static constexpr int kOutStageBytes = !kStagedStore ? 0 : kStagedByTma ? kStagedTmaBytes : kStagedBytes<kBlockN>;
  // The high parts share the output staging's shared memory: they are read back at the end of
  // the item's mainloop, before its store, and first written at its first promotion, after the
  // previous item's store has read the staging rows (a barrier of the math threads there).
  static constexpr int kOutStageRegionBytes = kOutStageBytes > kPromotedHiBytes ? kOutStageBytes : kPromotedHiBytes;
  // store_staged_tma's buffers, a round (kStagedRows activation rows) each: as many as that
  // shared memory holds, up to one a round (the 192-row tiles' 48 KB: 6 of 6 rounds, the
  // 256-row tiles' 60 KB: 7 of 8), so that the store's rounds do not wait for TMA's reads.
  static constexpr int kStagedTmaBuffers =
      kOutStageRegionBytes / kStagedTmaBufferBytes < kAccRegs / 16 ? kOutStageRegionBytes / kStagedTmaBufferBytes
                                                                    : kAccRegs / 16;
  static constexpr int kPromotedBytes = kPromoteInSmem ? kMathThreads * kAccRegs * 4 : 16;
  // Stages, their scale chunks, the output staging, the promoted sum, and 1024 bytes each for
  // barriers and swizzle alignment (twice for the output staging's 1024-byte boxes).
  static constexpr int kSmemBytes =
      kStages * kRingStageSmem + kOutStageRegionBytes + kPromotedBytes + 1024 + 1024 + (kStagedByTma ? 1024 : 0);

  static_assert(kCodes ? (kMPad == 8 || kMPad == 16)
                       : (kMPad == 16 || kMPad == 32 || kMPad == 64 || kMPad == 128 || kMPad == 192 ||
                          kMPad == 256),
                "activation rows are padded to a generated wgmma width (codes: 8, 16; values: 16, 32, "
                "64, 128, 192, 256)");
  static_assert(kMPad <= 256, "one TMA box of activation rows");
  static_assert(!kPromoteInGlobal || (kStagedStore && kPromotedHiWords % 4 == 0 && kPromotedHiAcc <= kAccRegs &&
                                      (kAccRegs - kPromotedHiAcc) % 4 == 0),
                "the high parts share the staging rows, in 16-byte groups; the rest of the "
                "accumulators promote into the slot in groups of 4");
  static_assert(kAccRegs % kFixupChunk == 0, "the fixup sums whole chunks of accumulators");
  static_assert(kPromoteInRegisters || kValueFragments == 2,
                "tiles without promotion are written for the two-fragment values loop");
  static_assert(!kCodes || kMPad <= 16,
                "the codes form keeps two block partials and two fragments in registers: built for "
                "up to 16 activation rows");
  static_assert(kSplitK ? kBlockN == 64 && kQuarters == kMathWarpgroups : kBlockN % 128 == 0 && kBlockN <= 256,
                "whole scale chunks (kSplitK: a 64-row tile, half a chunk, a part a warpgroup); one TMA box of rows");
  static_assert(!kSplitK || (kSubStages == 2 && kRingK * kQuarters == 2 * kStreamSubStageK * split_k_parts(kMPad)),
                "K split in 128-K parts, as split_k_ring_stages counts them");
  static_assert(kSubStageBytesX % 1024 == 0 && kStageBytesW % 1024 == 0,
                "every stage (and sub-stage) buffer must start on a 1024-byte swizzle boundary");
  static_assert(kSubStages == 1 || kSubStages == 2, "a 64B-swizzled or a 128B-swizzled weight row");
  static_assert(kSubStages == 1 || kStagesPerPromotion % kSubStages == 0, "promotion after whole ring stages");
  static_assert(kStages * kSubStages * kQuarters >= 4 && kStages >= 2, "too few stages to hide HBM latency");
  static_assert(!kStagedByTma || kStagedBytes<kBlockN> <= kStagedTmaBytes,
                "the threads' staged store (detail::StreamTmaStore::Never) fits the TMA store's buffers");
  static_assert(kSmemBytes <= 227 * 1024, "shared memory budget of an sm_90 CTA exceeded");
  static_assert(kRegisterBudget <= kLaunchRegs * kThreads,
                "setmaxnreg budget exceeds the registers the CTA is launched with");
  static_assert(kProducerRegs % 8 == 0 && kMathRegs % 8 == 0, "setmaxnreg takes multiples of 8");
};

}  // namespace mxgemm::sm90
