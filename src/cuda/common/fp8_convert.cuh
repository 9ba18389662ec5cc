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

// The low (half == 0) or high (half == 1) byte pair of a 32-bit word.
__device__ __forceinline__ std::uint16_t byte_pair(std::uint32_t word, int half) {
  return static_cast<std::uint16_t>(half == 0 ? (word & 0xFFFFu) : (word >> 16));
}

}  // namespace mxgemm::cuda
