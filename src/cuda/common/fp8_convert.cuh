// Exact dequantization of MXFP8 pairs to bf16x2 on the CUDA cores.
//
// Every E4M3/E5M2 value converts exactly to fp16 (cvt.rn.f16x2.e4m3x2, PTX ISA 9.7.9.21),
// then to fp32, is multiplied by the block scale 2^(s-127) (exact: a power of two), and
// packs to bf16 with round-to-nearest-even, which is exact whenever the scaled value lies in
// bf16's range (it keeps all 4 significant bits of E4M3 / 3 of E5M2). NaN elements stay NaN,
// E5M2 infinities stay infinite, and a NaN scale (0xFF) turns the whole block NaN.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "mxgemm/types.hpp"

namespace mxgemm::cuda {

// 2^(s-127) as fp32 for an E8M0 byte: 0 -> 2^-127 (an fp32 subnormal), 0xFF -> NaN.
__device__ __forceinline__ float e8m0_to_float(std::uint32_t s) {
  const std::uint32_t bits = s == 0 ? 0x00400000u : (s == 0xFFu ? 0x7FC00000u : s << 23);
  return __uint_as_float(bits);
}

// Two fp8 codes (low byte = first element) -> fp16x2, exactly.
template <DType kElem>
__device__ __forceinline__ std::uint32_t fp8x2_to_f16x2(std::uint16_t pair) {
  static_assert(kElem == DType::E4M3 || kElem == DType::E5M2, "fp8 element type expected");
  std::uint32_t out;
  if constexpr (kElem == DType::E4M3) {
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(out) : "h"(pair));
  } else {
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(out) : "h"(pair));
  }
  return out;
}

// Two fp8 codes -> bf16x2 of code * scale (low half = first element).
template <DType kElem>
__device__ __forceinline__ std::uint32_t dequant_pair_bf16x2(std::uint16_t pair, float scale) {
  const std::uint32_t h2 = fp8x2_to_f16x2<kElem>(pair);
  const float lo = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 & 0xFFFFu))) * scale;
  const float hi = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 >> 16))) * scale;
  std::uint32_t out;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(out) : "f"(hi), "f"(lo));
  return out;
}

// fp16x2 codes -> the same codes as bf16x2: exact, every fp8 code is a normal fp16 or zero.
__device__ __forceinline__ std::uint32_t f16x2_codes_to_bf16x2(std::uint32_t h2) {
  const float lo = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 & 0xFFFFu)));
  const float hi = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 >> 16)));
  std::uint32_t codes;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(codes) : "f"(hi), "f"(lo));
  return codes;
}
// The same bf16x2 as dequant_pair_bf16x2 by a bf16 multiply: codes -> fp16x2 -> bf16x2
// (exact), then times the scale as bf16x2 (both halves 2^(s-127); e8m0_pair_to_bf16_lanes).
// One rounding of the exact product, as above, in one instruction fewer (the hot loop of the
// streaming kernel's values form). This is its second half, for codes already converted to
// fp16x2 (fp8x2_to_f16x2_half: the permuted fragment); dequant_pair_bf16x2_mul the whole.
__device__ __forceinline__ std::uint32_t f16x2_codes_to_bf16x2_mul(std::uint32_t h2, std::uint32_t scale2) {
  std::uint32_t out;
  asm("mul.rn.bf16x2 %0, %1, %2;" : "=r"(out) : "r"(f16x2_codes_to_bf16x2(h2)), "r"(scale2));
  return out;
}

// x times 16-bit lane kLane of `lanes` in both halves, as bf16x2 or (kF16) fp16x2: ptxas reads
// that lane in the multiply itself (HMUL2 ... R.H0_H0 / R.H1_H1), with no instruction to copy
// it across.
template <int kLane, bool kF16>
__device__ __forceinline__ std::uint32_t mul_by_lane(std::uint32_t x, std::uint32_t lanes) {
  static_assert(kLane == 0 || kLane == 1, "a 32-bit word has two 16-bit lanes");
  std::uint32_t out;
  if constexpr (kLane == 0 && !kF16)
    asm("{ .reg .b16 lo, hi; .reg .b32 s; mov.b32 {lo, hi}, %2; mov.b32 s, {lo, lo}; mul.rn.bf16x2 %0, %1, s; }"
        : "=r"(out) : "r"(x), "r"(lanes));
  else if constexpr (!kF16)
    asm("{ .reg .b16 lo, hi; .reg .b32 s; mov.b32 {lo, hi}, %2; mov.b32 s, {hi, hi}; mul.rn.bf16x2 %0, %1, s; }"
        : "=r"(out) : "r"(x), "r"(lanes));
  else if constexpr (kLane == 0)
    asm("{ .reg .b16 lo, hi; .reg .b32 s; mov.b32 {lo, hi}, %2; mov.b32 s, {lo, lo}; mul.rn.f16x2 %0, %1, s; }"
        : "=r"(out) : "r"(x), "r"(lanes));
  else
    asm("{ .reg .b16 lo, hi; .reg .b32 s; mov.b32 {lo, hi}, %2; mov.b32 s, {hi, hi}; mul.rn.f16x2 %0, %1, s; }"
        : "=r"(out) : "r"(x), "r"(lanes));
  return out;
}

// The same as f16x2_codes_to_bf16x2_mul with the scale in lane kLane of `lanes`
// (e8m0_quad_to_bf16_lanes).
template <int kLane>
__device__ __forceinline__ std::uint32_t f16x2_codes_to_bf16x2_mul_lane(std::uint32_t h2, std::uint32_t lanes) {
  return mul_by_lane<kLane, false>(f16x2_codes_to_bf16x2(h2), lanes);
}

template <DType kElem>
__device__ __forceinline__ std::uint32_t dequant_pair_bf16x2_mul(std::uint16_t pair, std::uint32_t scale2) {
  return f16x2_codes_to_bf16x2_mul(fp8x2_to_f16x2<kElem>(pair), scale2);
}

// Two E8M0 bytes (a pair, block 0 in the low byte) -> 2^(s-127) as bf16 in each 16-bit lane:
// s << 7, with 0 -> 2^-127 (the bf16 subnormal 0x0040) and 0xFF -> NaN (0x7FC0). Lane
// arithmetic cannot carry across lanes: every lane stays below 0x8040.
__device__ __forceinline__ std::uint32_t e8m0_pair_to_bf16_lanes(std::uint32_t pair) {
  std::uint32_t x = __byte_perm(pair, 0, 0x4140) << 7;  // [s1 << 7 | s0 << 7] in 16-bit lanes
  x = max_u16x2(x, 0x00400040u);                         // s = 0: 2^-127
  const std::uint32_t inf = (x + 0x00800080u) & 0x80008000u;  // lanes holding 0x7F80 (s = 0xFF)
  return x | (inf >> 9);                                  // 0x7F80 | 0x0040: quiet NaN
}

// Four E8M0 bytes [b3 b2 b1 b0] -> 2^(s-127) as bf16 by a shift into the exponent field:
// lanes[0] = [b2 | b0], lanes[1] = [b3 | b1] in 16-bit lanes (lane 0 low). Bytes 0 and 0xFF
// come out as 0 and +Inf, not 2^-127 and NaN: for callers that send a block with either byte
// and nonzero codes to an exact path (needs_exact_path<kElem, true>); with zero codes both
// give what the exact values do (0 and NaN times 0).
__device__ __forceinline__ void e8m0_quad_to_bf16_lanes(std::uint32_t quad, std::uint32_t (&lanes)[2]) {
  lanes[0] = (quad << 7) & 0x7F807F80u;
  lanes[1] = (quad >> 1) & 0x7F807F80u;
}

// Four E8M0 bytes [b3 b2 b1 b0] -> 2^(s - 127 + kShift) as fp16 in 16-bit lanes, lanes[0] =
// [b2 | b0], lanes[1] = [b3 | b1] (the fp16 values form, scale_window.cuh): the exponent field
// s - 112 + kShift, taken mod 32 from the byte's low 5 bits, which is the exact power for the
// bytes of the fp16 window. Every other byte gives some finite power (fields capped at 30: no
// infinity, so that a block of zero codes stays 0), 0xFF included: a NaN block takes the exact
// path (needs_exact_path_f16).
template <int kShift>
__device__ __forceinline__ void e8m0_quad_to_f16_lanes(std::uint32_t quad, std::uint32_t (&lanes)[2]) {
  constexpr std::uint32_t kField = static_cast<std::uint32_t>(((kShift - 112) % 32 + 32) % 32);
  constexpr std::uint32_t kAdd = 0x00010001u * (kField << 10);
  lanes[0] = min_u16x2((((quad << 10) & 0x7C007C00u) + kAdd) & 0x7C007C00u, 0x78007800u);
  lanes[1] = min_u16x2((((quad << 2) & 0x7C007C00u) + kAdd) & 0x7C007C00u, 0x78007800u);
}

// fp16x2 codes times the fp16 power of two in lane kLane of `lanes` (e8m0_quad_to_f16_lanes):
// exact inside the fp16 window.
template <int kLane>
__device__ __forceinline__ std::uint32_t f16x2_codes_mul_f16_lane(std::uint32_t h2, std::uint32_t lanes) {
  return mul_by_lane<kLane, true>(h2, lanes);
}

// Lane `blk` (0, 1) of e8m0_pair_to_bf16_lanes copied into both halves.
__device__ __forceinline__ std::uint32_t bf16_lane_broadcast(std::uint32_t lanes, int blk) {
  return __byte_perm(lanes, 0, blk == 0 ? 0x1010 : 0x3232);
}

// Byte pair kHalf of a 32-bit word (bytes 2 kHalf, 2 kHalf + 1) -> fp16x2, exactly. The pair
// is named as a 16-bit half of the register, which the conversion reads in place (F2FP on
// R.H1) instead of after a shift, as byte_pair + fp8x2_to_f16x2 compile to.
template <DType kElem, int kHalf>
__device__ __forceinline__ std::uint32_t fp8x2_to_f16x2_half(std::uint32_t word) {
  static_assert(kElem == DType::E4M3 || kElem == DType::E5M2, "fp8 element type expected");
  static_assert(kHalf == 0 || kHalf == 1, "a 32-bit word has two byte pairs");
  std::uint32_t out;
  if constexpr (kElem == DType::E4M3) {
    if constexpr (kHalf == 0)
      asm("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rn.f16x2.e4m3x2 %0, lo; }" : "=r"(out) : "r"(word));
    else
      asm("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rn.f16x2.e4m3x2 %0, hi; }" : "=r"(out) : "r"(word));
  } else {
    if constexpr (kHalf == 0)
      asm("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rn.f16x2.e5m2x2 %0, lo; }" : "=r"(out) : "r"(word));
    else
      asm("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rn.f16x2.e5m2x2 %0, hi; }" : "=r"(out) : "r"(word));
  }
  return out;
}

// The low (half == 0) or high (half == 1) byte pair of a 32-bit word.
__device__ __forceinline__ std::uint16_t byte_pair(std::uint32_t word, int half) {
  return static_cast<std::uint16_t>(half == 0 ? (word & 0xFFFFu) : (word >> 16));
}

}  // namespace mxgemm::cuda
