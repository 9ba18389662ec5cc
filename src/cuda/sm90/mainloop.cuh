// Pieces shared by the two sm_90a MXFP8 mainloops (the tiled kernel, mxfp8_gemm_kernel.cuh,
// and the weight-streaming kernel for small M, stream_gemm_kernel.cuh): pipeline ring
// indices, E8M0 scale reads, the swizzled shared-memory addressing of TMA tiles, and the
// exact dequantization of fp8 into wgmma's register-A fragment in the permuted K order.
//
// K permutation. A dot product does not care about the order of k inside a 32-element scale
// block, provided both operands use the same order. We pick the order in which 8
// consecutive fp8 bytes, loaded by one thread with one 8-byte load, are exactly that
// thread's register-fragment slots: physical byte p = 8q + 4h + 2i + j of a block
// (q = lane % 4) is fed as logical k = 16h + 8i + 2q + j. The operand that wgmma reads from
// shared memory (bf16, K-major) is written in the same logical order.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "cuda/common/fp8_convert.cuh"
#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/scale_window.cuh"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {

// Both kernels run K in steps of 64: one 64-byte fp8 row (TMA 64B swizzle; or half of a
// 128-byte row under the 128B swizzle, the streaming kernel's 128-K stages) and one 128-byte
// bf16 row (128B swizzle, one wgmma K-major atom) per operand row.
constexpr int kStageK = 64;
constexpr int kK16PerStage = kStageK / 16;

// A ring position over `kSize` buffers and the parity of the current pass.
template <int kSize>
struct RingIndex {
  int index = 0;
  std::uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++index == kSize) { index = 0; phase ^= 1; }
  }
  // The index `back` steps behind (back < kSize); a compare, not a signed modulo.
  __device__ __forceinline__ int behind(int back) const {
    const int i = index - back;
    return i < 0 ? i + kSize : i;
  }
};

// Reads the E8M0 scales of one matrix row in either layout (the pre-passes use it). Both
// layouts place block c of row r at offset(r, 0) + offset(0, c), so the row part is
// computed once. Rows past the matrix and blocks past ceil(K/32) read as 127 (scale 1).
struct ScaleRow {
  const std::uint8_t* row_base;  // null when the row is outside the matrix
  bool swizzled;
  int blocks;
  __device__ __forceinline__ ScaleRow(const ScaleSource& s, int row, int rows, int blocks_)
      : row_base(row < rows ? s.data + (s.swizzled ? swizzled_scale_offset(row, 0, blocks_)
                                                    : linear_scale_offset(row, 0, s.row_stride))
                            : nullptr),
        swizzled(s.swizzled), blocks(blocks_) {}
  __device__ __forceinline__ std::uint32_t load(int block) const {
    if (row_base == nullptr || block >= blocks) return 127u;
    return __ldg(row_base + (swizzled ? swizzled_scale_offset(0, block, blocks)
                                      : linear_scale_offset(0, block, 0)));
  }
};

// Scale chunks. The swizzled 128x4 layout keeps the 4 blocks (2 stages) of 128 rows in one
// contiguous 512-byte chunk. The producer copies each stage's chunk into shared memory
// together with the stage's data (TMA, counted by the same barrier), so no math
// thread ever waits on a global load: a scale read from global memory a stage ahead still
// cost a full HBM round trip per stage, because the fence.proxy.async of every stage
// release (MEMBAR.ALL.CTA) waits for all of the thread's outstanding loads. Linear or
// unaligned scales are first rewritten as swizzled chunks (scale_prepass.cu).
constexpr int kScaleChunkBytes = 512;
static_assert(kScaleChunkBytes == kSwizzleTileBytes, "a chunk is one 128x4 swizzle tile");

// TMA row coordinate of the chunk for stage ks of 128-row tile `tile` (scale_prepass.hpp).
__device__ __forceinline__ int scale_chunk_row(int tile, int col_tiles, int ks) {
  return (tile * col_tiles + ks / 2) * 2;
}

// The two scale bytes of stage ks (blocks 2ks, 2ks+1; block 0 in the low byte) of tile row
// r (0..127) in a chunk; blocks past ceil(K/32) read as 127 (scale 1) whatever the padding
// holds, against the zeros TMA fills in past K.
// Offset of tile row r's bytes in its chunk, without the stage's part.
__device__ __forceinline__ int chunk_row_offset(int r) { return (r % 32) * 16 + (r / 32) * 4; }

// chunk_scale_pair of the row whose bytes start at `row_bytes` (chunk + chunk_row_offset).
// (The bytes as they are: past K the second is the chunk's padding.)
__device__ __forceinline__ std::uint32_t chunk_scale_pair_bytes(const std::uint8_t* row_bytes, int ks) {
  return *reinterpret_cast<const std::uint16_t*>(row_bytes + (ks & 1) * 2);
}
__device__ __forceinline__ std::uint32_t chunk_scale_pair_at(const std::uint8_t* row_bytes, int ks, int blocks) {
  std::uint32_t pair = chunk_scale_pair_bytes(row_bytes, ks);
  if (2 * ks + 1 >= blocks) pair = (pair & 0xFFu) | (127u << 8);
  return pair;
}

__device__ __forceinline__ std::uint32_t chunk_scale_pair(const std::uint8_t* chunk, int r, int ks,
                                                          int blocks) {
  return chunk_scale_pair_at(chunk + chunk_row_offset(r), ks, blocks);
}

// The fp32 scale of block `blk` (0 or 1) of a pair.
__device__ __forceinline__ float pair_scale(std::uint32_t pair, int blk) {
  return cuda::e8m0_to_float(blk == 0 ? (pair & 0xFFu) : (pair >> 8));
}

// Byte offset of 16-byte chunk `chunk` of row `row` in a TMA 64B-swizzled tile of 64-byte rows
// (the swizzle XORs chunk bits [4,5] with address bits [7,8]).
__device__ __forceinline__ int sw64_offset(int row, int chunk) {
  return row * 64 + ((chunk ^ ((row >> 1) & 3)) << 4);
}
// Byte offset of 16-byte chunk `chunk` of row `row` in a 128B-swizzled tile of 128-byte rows.
__device__ __forceinline__ int sw128_offset(int row, int chunk) {
  return row * 128 + ((chunk ^ (row & 7)) << 4);
}

// One 32-element block (8 words of 4 physical fp8 codes) -> four 16-byte chunks of 16-bit
// pairs in the logical order: chunk t = (h, i) holds the pairs of words h, 2+h, 4+h, 6+h;
// convert(pair) makes one 16-bit pair of two codes.
template <typename Convert>
__device__ __forceinline__ void convert_block_permuted(const std::uint32_t (&w)[8], Convert convert,
                                                       uint4 (&out)[4]) {
#pragma unroll
  for (int t = 0; t < 4; ++t) {
    const int h = t >> 1, i = t & 1;
    out[t].x = convert(cuda::byte_pair(w[h], i));
    out[t].y = convert(cuda::byte_pair(w[2 + h], i));
    out[t].z = convert(cuda::byte_pair(w[4 + h], i));
    out[t].w = convert(cuda::byte_pair(w[6 + h], i));
  }
}

// The block as bf16 values code * scale.
template <DType kElem>
__device__ __forceinline__ void dequant_block_permuted(const std::uint32_t (&w)[8], float scale,
                                                       uint4 (&out)[4]) {
  convert_block_permuted(w, [&](std::uint16_t pair) { return cuda::dequant_pair_bf16x2<kElem>(pair, scale); },
                         out);
}

// The block as fp16 codes, unscaled (exact: every E4M3/E5M2 code is an fp16 value).
template <DType kElem>
__device__ __forceinline__ void codes_block_permuted(const std::uint32_t (&w)[8], uint4 (&out)[4]) {
  convert_block_permuted(w, [](std::uint16_t pair) { return cuda::fp8x2_to_f16x2<kElem>(pair); }, out);
}

// Where the 8 physical bytes of scale block blk (0, 1) that lane quad q reads of row `row`
// lie in a stage's 64B-swizzled fp8 tile: exactly its register-A slots of the block's two
// k16 steps (the K permutation above).
__device__ __forceinline__ int fragment_row_offset(int row, int blk, int q) {
  return sw64_offset(row, 2 * blk + (q >> 1)) + ((q & 1) << 3);
}
// In a 128B-swizzled row, sub-stage 1's chunk 4 + c lies at chunk c ^ (row % 8) ^ 4 for the
// chunks c < 4 of sub-stage 0: its offsets are sub-stage 0's with bit 6 flipped (one LOP3 a
// load, where pinning a second set of offsets made ptxas spill in the four-warpgroup loops).
template <int kSub>
__device__ __forceinline__ int sub_stage_offset(int offset_sub0) {
  return kSub == 0 ? offset_sub0 : offset_sub0 ^ 64;
}
// The same in a tile of kRowBytes-byte rows: 64 (the offsets above), or 128 (TMA 128B
// swizzle, two 64-K sub-stages a row: the streaming kernel's 128-K stages), sub-stage kSub.
template <int kRowBytes, int kSub>
__device__ __forceinline__ int fragment_row_offset_in(int row, int blk, int q) {
  static_assert((kRowBytes == 64 && kSub == 0) || (kRowBytes == 128 && (kSub == 0 || kSub == 1)),
                "64-byte rows hold one sub-stage, 128-byte rows two");
  if constexpr (kRowBytes == 64) return fragment_row_offset(row, blk, q);
  else return sub_stage_offset<kSub>(sw128_offset(row, 2 * blk + (q >> 1)) + ((q & 1) << 3));
}
template <int kRowBytes = 64, int kSub = 0>
__device__ __forceinline__ uint2 fragment_row_bytes(const std::uint8_t* src, int row, int blk, int q) {
  return *reinterpret_cast<const uint2*>(src + fragment_row_offset_in<kRowBytes, kSub>(row, blk, q));
}

// The four register-A slots that one row's 8 bytes (v) of scale block blk fill: frag[k16][half]
// and frag[k16][2 + half] of the block's two k16 steps. convert(word, pair, blk, half) as in
// load_fragment_with below.
template <typename Convert>
__device__ __forceinline__ void fill_fragment_slots(uint2 v, int blk, int half, Convert& convert,
                                                    std::uint32_t (&frag)[kK16PerStage][4]) {
  using Low = std::integral_constant<int, 0>;
  using High = std::integral_constant<int, 1>;
  frag[2 * blk][half] = convert(v.x, Low{}, blk, half);
  frag[2 * blk][2 + half] = convert(v.x, High{}, blk, half);
  frag[2 * blk + 1][half] = convert(v.y, Low{}, blk, half);
  frag[2 * blk + 1][2 + half] = convert(v.y, High{}, blk, half);
}

// Loads this thread's register-A fragment of one stage from a 64B-swizzled fp8 tile (or of
// sub-stage kSub of a 128B-swizzled tile of 128-byte rows, fragment_row_offset_in): rows
// `row` and `row` + 8, lane quad q, both scale blocks; frag[k16][4] in wgmma register-A order.
// convert(word, pair, blk, half) makes the 16-bit pair of two codes from byte pair `pair`
// (std::integral_constant 0 or 1: bytes 2 pair, 2 pair + 1) of a loaded word, of scale block
// blk (0, 1) of row `row` + 8 * half.
template <int kRowBytes = 64, int kSub = 0, typename Convert>
__device__ __forceinline__ void load_fragment_with(const std::uint8_t* src, int row, int q, Convert convert,
                                                   std::uint32_t (&frag)[kK16PerStage][4]) {
#pragma unroll
  for (int blk = 0; blk < 2; ++blk) {
#pragma unroll
    for (int half = 0; half < 2; ++half)  // half 0: row r, half 1: row r + 8
      fill_fragment_slots(fragment_row_bytes<kRowBytes, kSub>(src, row + 8 * half, blk, q), blk, half, convert, frag);
  }
}

// The fragment as exact bf16 values, code * block scale.
template <DType kElem>
__device__ __forceinline__ void load_fragment(const std::uint8_t* src, int row, int q,
                                              const float (&scale)[2][2],
                                              std::uint32_t (&frag)[kK16PerStage][4]) {
  load_fragment_with(
      src, row, q,
      [&](std::uint32_t word, auto pair, int blk, int half) {
        return cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(word, decltype(pair)::value), scale[half][blk]);
      },
      frag);
}

// The permuted fragment's byte offsets in a stage's sub-stage 0, [half][blk]
// (fragment_row_offset_in; sub-stage 1: sub_stage_offset), computed once per thread and pinned.
template <int kRowBytes = 64>
struct PermutedFragmentOffsets {
  int offset[2][2];
  __device__ __forceinline__ PermutedFragmentOffsets(int row, int q) {
#pragma unroll
    for (int half = 0; half < 2; ++half)
#pragma unroll
      for (int blk = 0; blk < 2; ++blk) {
        offset[half][blk] = fragment_row_offset_in<kRowBytes, 0>(row + 8 * half, blk, q);
        ptx::keep_in_register(offset[half][blk]);
      }
  }
};

// The block scales of a thread's two fragment rows (half 0: w_row, 1: w_row + 8) for one
// 64-K step, as the values form's fragment loaders multiply by them; fragment_scales_bf16
// fills either. mul(): fp16x2 codes of row `half`, block `blk` -> the exact bf16 values code *
// scale, one rounding of the exact product.
// Each scale as bf16 in both halves of a word, every byte exact (0: 2^-127, 0xFF: NaN).
struct BroadcastScalesBf16 {
  std::uint32_t s[2][2];  // [half][blk]
  __device__ __forceinline__ std::uint32_t mul(std::uint32_t h2, int blk, int half) const {
    return cuda::f16x2_codes_to_bf16x2_mul(h2, s[half][blk]);
  }
};
// Two rows' scales of a block in the 16-bit lanes of one word, read by the multiply itself;
// bytes 0 and 0xFF as 0 and +Inf, for a kernel that sends such blocks with nonzero codes to its
// exact path (e8m0_quad_to_bf16_lanes). 16 SASS fewer a 64-K step than the broadcast form.
struct LaneScalesBf16 {
  std::uint32_t lanes[2];  // [blk] = [half 1 | half 0]
  __device__ __forceinline__ std::uint32_t mul(std::uint32_t h2, int blk, int half) const {
    return half == 0 ? cuda::f16x2_codes_to_bf16x2_mul_lane<0>(h2, lanes[blk])
                     : cuda::f16x2_codes_to_bf16x2_mul_lane<1>(h2, lanes[blk]);
  }
};

// The fp16 values form's (kF16X in stream_gemm_kernel.cuh): two rows' powers of two of a
// block as fp16 lanes (e8m0_quad_to_f16_lanes), code x 2^(s - 127 + kF16WeightShift), exact
// inside the fp16 window: 2 instructions a pair with the conversion to fp16 codes, where the
// bf16 values take 5 (bench/results/s26/b4).
struct LaneScalesF16 {
  std::uint32_t lanes[2];  // [blk] = [half 1 | half 0]
  __device__ __forceinline__ std::uint32_t mul(std::uint32_t h2, int blk, int half) const {
    return half == 0 ? cuda::f16x2_codes_mul_f16_lane<0>(h2, lanes[blk])
                     : cuda::f16x2_codes_mul_f16_lane<1>(h2, lanes[blk]);
  }
};

// The fragment in the permuted K order as exact bf16 values code * scale (Scales: one of the
// two above): four 8-byte loads a stage where the natural order takes sixteen 2-byte ones.
template <DType kElem, int kSub = 0, int kRowBytes, typename Scales>
__device__ __forceinline__ void load_fragment_permuted(const std::uint8_t* stage, const PermutedFragmentOffsets<kRowBytes>& at,
                                                       const Scales& scales, std::uint32_t (&frag)[kK16PerStage][4]) {
  auto convert = [&](std::uint32_t word, auto pair, int blk, int half) {
    return scales.mul(cuda::fp8x2_to_f16x2_half<kElem, decltype(pair)::value>(word), blk, half);
  };
#pragma unroll
  for (int blk = 0; blk < 2; ++blk) {
#pragma unroll
    for (int half = 0; half < 2; ++half)
      fill_fragment_slots(*reinterpret_cast<const uint2*>(stage + sub_stage_offset<kSub>(at.offset[half][blk])), blk,
                          half, convert, frag);
  }
}

// The fragment as fp16 codes, the block scales left to the caller. Each pair is converted
// from its half of the loaded word in place (F2FP on R.H1, as the skinny kernel does), not
// after a shift: 8 instructions fewer a stage than byte_pair.
template <DType kElem, int kRowBytes = 64, int kSub = 0>
__device__ __forceinline__ void load_fragment_codes(const std::uint8_t* src, int row, int q,
                                                    std::uint32_t (&frag)[kK16PerStage][4]) {
  load_fragment_with<kRowBytes, kSub>(
      src, row, q,
      [](std::uint32_t word, auto pair, int, int) { return cuda::fp8x2_to_f16x2_half<kElem, decltype(pair)::value>(word); },
      frag);
}

// The same fragment from fp8 codes in their natural K order, for an activation that keeps
// its own order (the weight-streaming kernel's values form reads the caller's bf16
// activation in place): lane quad q needs codes 16kk + 2q + {0, 1} and 16kk + 8 + 2q + {0, 1}
// of each row, two 2-byte loads per row and k16 step (conflict-free: the 8 rows of a warp
// hit 16 distinct banks under the 64B swizzle).
//
// The byte offsets inside a stage depend only on the thread, so they are computed once:
// offset[kk] for row `row` in a tile of kRowBytes-byte rows (64: one sub-stage, 64B swizzle;
// 128: two, 128B swizzle); row + 8 is 8 rows on (the swizzle phase repeats every 8).
template <int kRowBytes = 64>
struct NaturalFragmentOffsets {
  static constexpr int kRowPlus8 = 8 * kRowBytes;
  int offset[kK16PerStage];
  __device__ __forceinline__ NaturalFragmentOffsets(int row, int q) {
    static_assert(kRowBytes == 64 || kRowBytes == 128, "64B- or 128B-swizzled rows");
#pragma unroll
    for (int kk = 0; kk < kK16PerStage; ++kk) {
      offset[kk] = (kRowBytes == 64 ? sw64_offset(row, kk) : sw128_offset(row, kk)) + 2 * q;
      ptx::keep_in_register(offset[kk]);
    }
  }
};
static_assert(kK16PerStage == 4, "one 16-byte swizzle chunk per k16 step of a 64-K sub-stage");

// Bytes as exact bf16 values code * scale (Scales: BroadcastScalesBf16 or LaneScalesBf16).
template <DType kElem, int kSub = 0, int kRowBytes, typename Scales>
__device__ __forceinline__ void load_fragment_natural(const std::uint8_t* stage, const NaturalFragmentOffsets<kRowBytes>& at,
                                                      const Scales& scales, std::uint32_t (&frag)[kK16PerStage][4]) {
#pragma unroll
  for (int kk = 0; kk < kK16PerStage; ++kk) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::uint8_t* chunk =
          stage + sub_stage_offset<kSub>(at.offset[kk]) + NaturalFragmentOffsets<kRowBytes>::kRowPlus8 * half;
      frag[kk][half] = scales.mul(cuda::fp8x2_to_f16x2<kElem>(*reinterpret_cast<const std::uint16_t*>(chunk)), kk / 2, half);
      frag[kk][2 + half] =
          scales.mul(cuda::fp8x2_to_f16x2<kElem>(*reinterpret_cast<const std::uint16_t*>(chunk + 8)), kk / 2, half);
    }
  }
}

// Where a thread's two fragment rows (tile rows `row`, `row` + 8, over consecutive 128-row
// chunks) keep their scale bytes in a stage's chunks: computed once per thread and pinned
// (with registers short, ptxas rebuilt the signed divisions in every stage: +22 SASS a
// stage in the streaming kernel's 4-warpgroup shapes).
struct FragmentScaleOffsets {
  int offsets[2];
  __device__ __forceinline__ explicit FragmentScaleOffsets(int row) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = row + 8 * half;
      offsets[half] = (r / 128) * kScaleChunkBytes + chunk_row_offset(r % 128);
      ptx::keep_in_register(offsets[half]);
    }
  }
  __device__ __forceinline__ int offset(int half) const { return offsets[half]; }
};
// The same in one register: a fragment's first row lies in the first half of its warp's 16
// (row % 16 < 8), so row + 8 shares its 32-row group of the chunk, 8 x 16 bytes on.
struct FragmentScaleBase {
  int base;
  __device__ __forceinline__ explicit FragmentScaleBase(int row)
      : base((row / 128) * kScaleChunkBytes + chunk_row_offset(row % 128)) {
    ptx::keep_in_register(base);
  }
  __device__ __forceinline__ int offset(int half) const { return base + 8 * 16 * half; }
};

// `outside` becomes true when a scale byte of the two pairs lies outside the exact window
// (scale_window.cuh): a few instructions a stage, the whole cost of the exact path's watch
// in the mainloops.
template <DType kElem>
__device__ __forceinline__ void watch_scale_window(std::uint32_t pair0, std::uint32_t pair1, bool& outside) {
  outside |= scales_outside_window<kElem>(__byte_perm(pair0, pair1, 0x5410)) != 0;
}

// The block scales of this thread's two fragment rows for 64-K step ks, from the stage's
// chunks; `outside` watches them (watch_scale_window). Past K the second block's byte (the
// chunk's padding) reads as 127.
template <DType kElem, typename Offsets>
__device__ __forceinline__ void fragment_scales_bf16(const std::uint8_t* chunks, const Offsets& at,
                                                     int ks, int blocks, BroadcastScalesBf16& out, bool& outside) {
  std::uint32_t pair[2];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    pair[half] = chunk_scale_pair_at(chunks + at.offset(half), ks, blocks);
    const std::uint32_t lanes = cuda::e8m0_pair_to_bf16_lanes(pair[half]);
#pragma unroll
    for (int blk = 0; blk < 2; ++blk) out.s[half][blk] = cuda::bf16_lane_broadcast(lanes, blk);
  }
  watch_scale_window<kElem>(pair[0], pair[1], outside);
}
// The same as lanes; outside_bits gathers the window test of the bytes (scales_outside_window:
// nonzero when some byte is outside). Bytes 0 and 0xFF both lie outside the window, so a block
// with either and nonzero codes takes the exact path (needs_exact_path<kElem, true>), and with
// zero codes the lanes' 0 and +Inf give the exact values (0 and NaN).
// The four scale bytes of a thread's two fragment rows for 64-K step ks, [row + 8: blk 1, blk 0
// | row: blk 1, blk 0]; past K the second block's byte (the chunk's padding) reads as `pad`.
template <typename Offsets>
__device__ __forceinline__ std::uint32_t fragment_scale_quad(const std::uint8_t* chunks, const Offsets& at, int ks,
                                                             int blocks, std::uint32_t pad) {
  const std::uint32_t quad = __byte_perm(chunk_scale_pair_bytes(chunks + at.offset(0), ks),
                                         chunk_scale_pair_bytes(chunks + at.offset(1), ks), 0x5410);
  return 2 * ks + 1 >= blocks ? (quad & 0x00FF00FFu) | (0x01000100u * pad) : quad;
}

template <DType kElem, typename Offsets>
__device__ __forceinline__ void fragment_scales_bf16(const std::uint8_t* chunks, const Offsets& at,
                                                     int ks, int blocks, LaneScalesBf16& out,
                                                     std::uint32_t& outside_bits) {
  const std::uint32_t quad = fragment_scale_quad(chunks, at, ks, blocks, 127);
  outside_bits |= scales_outside_window<kElem>(quad);
  cuda::e8m0_quad_to_bf16_lanes(quad, out.lanes);
}

// The same as fp16 lanes for the fp16 values form; outside_bits gathers the fp16 window's
// test (scales_outside_f16_window). Past K the second block's byte reads as the window's
// centre (its codes are TMA's zeros).
template <DType kElem, typename Offsets>
__device__ __forceinline__ void fragment_scales_f16(const std::uint8_t* chunks, const Offsets& at, int ks, int blocks,
                                                    LaneScalesF16& out, std::uint32_t& outside_bits) {
  const std::uint32_t quad = fragment_scale_quad(chunks, at, ks, blocks, kF16WindowCenter);
  outside_bits |= scales_outside_f16_window<kElem>(quad);
  cuda::e8m0_quad_to_f16_lanes<kF16WeightShift>(quad, out.lanes);
}

// The fp32 block scales of this thread's two fragment rows for stage ks, [half][blk]; with
// kWatch, `outside` watches them (watch_scale_window). With kShift, when all four bytes are
// 1..254 (every block but a zero block's and a NaN one) they become 2^(s-127) by a shift into
// the fp32 exponent; 0 (2^-127, an fp32 subnormal) and 0xFF (NaN) take e8m0_to_float, out of
// the common path.
template <DType kElem, bool kWatch, bool kShift = false, typename Offsets>
__device__ __forceinline__ void fragment_scales(const std::uint8_t* chunks, const Offsets& at, int ks,
                                                int blocks, float (&out)[2][2], bool& outside) {
  if constexpr (kShift) {
    const std::uint32_t p0 = chunk_scale_pair_at(chunks + at.offset(0), ks, blocks);
    const std::uint32_t p1 = chunk_scale_pair_at(chunks + at.offset(1), ks, blocks);
    if constexpr (kWatch) watch_scale_window<kElem>(p0, p1, outside);
    const std::uint32_t w = __byte_perm(p0, p1, 0x5410);  // [half][blk] = byte 2 half + blk
    // (Bit 7 of each byte that is 0x00 in w or in ~w: no carry crosses a byte.)
    if (__builtin_expect(((~(((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w)) | (~(((~w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | ~w))) &
                             0x80808080u,
                         0)) {
#pragma unroll
      for (int i = 0; i < 4; ++i) out[i / 2][i % 2] = cuda::e8m0_to_float((w >> (8 * i)) & 0xFFu);
    } else {
      out[0][0] = __uint_as_float((w << 23) & 0x7F800000u);
      out[0][1] = __uint_as_float((w << 15) & 0x7F800000u);
      out[1][0] = __uint_as_float((w << 7) & 0x7F800000u);
      out[1][1] = __uint_as_float((w >> 1) & 0x7F800000u);
    }
  } else {
    std::uint32_t pair[2];
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      pair[half] = chunk_scale_pair_at(chunks + at.offset(half), ks, blocks);
#pragma unroll
      for (int blk = 0; blk < 2; ++blk) out[half][blk] = pair_scale(pair[half], blk);
    }
    if constexpr (kWatch) watch_scale_window<kElem>(pair[0], pair[1], outside);
  }
}

// The same for tile rows `row`, `row` + 8 of one chunk (row < 120).
__device__ __forceinline__ void fragment_scales(const std::uint8_t* chunk, int row, int ks, int blocks,
                                                float (&out)[2][2]) {
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const std::uint32_t pair = chunk_scale_pair(chunk, row + 8 * half, ks, blocks);
#pragma unroll
    for (int blk = 0; blk < 2; ++blk) out[half][blk] = pair_scale(pair, blk);
  }
}

template <typename T>
__device__ __forceinline__ T convert_out(float v);
template <>
__device__ __forceinline__ float convert_out<float>(float v) { return v; }
template <>
__device__ __forceinline__ __nv_bfloat16 convert_out<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <>
__device__ __forceinline__ __half convert_out<__half>(float v) { return __float2half_rn(v); }

}  // namespace mxgemm::sm90
