// Device-side MXFP8 arithmetic shared by the quantize and dequantize kernels: the block
// scale rule of MX_FORMAT.md ("Quantization") on fp32 bits, element encoding through the
// hardware fp8 conversions, and decoding back. Bit-exact with src/cpu/quantize.cpp.
//
// Why fp32 arithmetic is exact here: an input (fp32, or bf16/fp16 widened exactly) is
// multiplied by 2^-shared_exp, a power of two in [2^-120, 2^127] (shared_exp <= 127 - 8 + 1
// since amax < 2^128). The product overflows never (|v| <= amax, so |v| * 2^-shared_exp <
// 2^(emax+1)) and is exact whenever it is an fp32 normal; when it falls below 2^-126 it may
// round, but anything that small rounds to +-0 in fp8 either way (the smallest fp8
// subnormal is 2^-16), and fp32 underflow keeps the sign. So RNE(v * 2^-shared_exp) in one
// cvt.rn.satfinite is the exact RNE of the exact quotient.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <type_traits>

#include "cuda/common/ptx.cuh"
#include "mxgemm/types.hpp"

namespace mxgemm::cuda {

// ---- element types ------------------------------------------------------------------

template <DType Elem>
struct Fp8Traits;
template <>
struct Fp8Traits<DType::E4M3> {
  static constexpr int kEmax = 8;                     // 448 = 1.75 * 2^8
  static constexpr std::uint32_t kNanOrInfCode = 0x7F;  // no Inf: Inf -> NaN
  static constexpr __nv_fp8_interpretation_t kInterp = __NV_E4M3;
};
template <>
struct Fp8Traits<DType::E5M2> {
  static constexpr int kEmax = 15;                    // 57344 = 1.75 * 2^15
  static constexpr std::uint32_t kNanOrInfCode = 0x7C;  // Inf stays Inf
  static constexpr __nv_fp8_interpretation_t kInterp = __NV_E5M2;
};

constexpr std::uint32_t kAbsMask = 0x7FFFFFFFu;
constexpr std::uint32_t kInfBits = 0x7F800000u;
constexpr std::uint32_t kScaleNaN = 0xFF;

// ---- wide values <-> fp32 -----------------------------------------------------------

// fp16 bits -> fp32, exact; the sign bit is carried over explicitly so that a NaN keeps
// its sign whatever the conversion does with NaN payloads (the NaN code's sign is kept).
__device__ __forceinline__ float half_to_float(std::uint32_t h) {
  const float f = __half2float(__ushort_as_half(static_cast<unsigned short>(h)));
  return __uint_as_float(__float_as_uint(f) | ((h & 0x8000u) << 16));
}

// Raw bits of one wide element (what shared-memory tiles hold), and their exact value.
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>;

template <typename T>
__device__ __forceinline__ float bits_to_float(Bits<T> b) {
  if constexpr (sizeof(T) == 4) {
    return __uint_as_float(b);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __uint_as_float(static_cast<std::uint32_t>(b) << 16);
  } else {
    return half_to_float(b);
  }
}

// ---- raw input words -------------------------------------------------------------------
//
// The quantizers keep their inputs as raw 32-bit words (two bf16/fp16 or one fp32) and
// take the amax on the bits, with no conversion: |v| bits order like |v|, every NaN sorts
// above Inf, and max.u16x2 (a single instruction on sm_90) compares two 16-bit values at
// once.

// fp32 bits of max |v| over the W words of one block part (NaN/Inf give >= 0x7F800000).
template <typename T, int W>
__device__ __forceinline__ std::uint32_t amax_bits_of(const std::uint32_t* w) {
  if constexpr (sizeof(T) == 4) {
    std::uint32_t m = w[0] & kAbsMask;
#pragma unroll
    for (int i = 1; i < W; ++i) m = max(m, w[i] & kAbsMask);
    return m;
  } else {
    std::uint32_t m = w[0] & 0x7FFF7FFFu;
#pragma unroll
    for (int i = 1; i < W; ++i) m = max_u16x2(m, w[i] & 0x7FFF7FFFu);
    const std::uint32_t h = max(m & 0xFFFFu, m >> 16);
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      return h << 16;
    } else {
      return __float_as_uint(__half2float(__ushort_as_half(static_cast<unsigned short>(h))));
    }
  }
}

// The two values of one bf16x2 or f16x2 word, low half first, exact.
template <typename T>
__device__ __forceinline__ float2 word_to_float2(std::uint32_t w) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return make_float2(__uint_as_float(w << 16), __uint_as_float(w & 0xFFFF0000u));
  } else {
    return make_float2(half_to_float(w & 0xFFFFu), half_to_float(w >> 16));
  }
}

// ---- the block scale ------------------------------------------------------------------

// max(|v|) as fp32 bits without sign: integer order equals magnitude order, and any NaN
// sorts above Inf, so a block holding NaN or Inf ends up >= kInfBits.
__device__ __forceinline__ std::uint32_t abs_bits(float v) { return __float_as_uint(v) & kAbsMask; }

struct BlockScale {
  std::uint32_t byte;  // E8M0 scale byte; 0xFF for a non-finite block
  float inv;           // 2^-shared_exp (finite blocks), the factor applied to elements
  bool nonfinite;      // the block holds NaN or Inf
};

// The scale of a block from its amax bits. amax = m * 2^E, m in [1,2) (fp32 subnormals
// normalized); FLOOR: E - emax; RCEIL: E - emax + (m > 1.75), i.e. ceil(log2(amax / max));
// clamped to [-127, 127]. amax == 0 gives byte 0 and factor 1 (elements stay +-0).
template <DType Elem>
__device__ __forceinline__ BlockScale block_scale(std::uint32_t amax_bits, bool rceil) {
  if (amax_bits >= kInfBits) return {kScaleNaN, 0.0f, true};
  if (amax_bits == 0) return {0, 1.0f, false};
  const std::uint32_t field = amax_bits >> 23;
  int e;
  std::uint32_t frac;
  if (field != 0) {
    e = static_cast<int>(field) - 127;
    frac = amax_bits & 0x7FFFFFu;
  } else {  // fp32 subnormal: shift the leading one up to bit 23
    const int shift = __clz(amax_bits) - 8;
    e = -126 - shift;
    frac = (amax_bits << shift) & 0x7FFFFFu;
  }
  // m > 1.75 <=> fraction bits > 0.75 * 2^23
  int shared = e - Fp8Traits<Elem>::kEmax + ((rceil && frac > 0x600000u) ? 1 : 0);
  shared = max(-127, min(127, shared));
  // 2^-shared: biased exponent 127 - shared lies in [7, 254] (shared <= 120, see above).
  return {static_cast<std::uint32_t>(shared + 127), __uint_as_float((127u - shared) << 23), false};
}

// ---- fp8 encoding -----------------------------------------------------------------------

// Two scaled values -> two fp8 codes (a in the low byte): round to nearest even,
// saturated to +-max finite (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32, PTX ISA 9.7.9.21).
template <DType Elem>
__device__ __forceinline__ std::uint32_t encode2(float a, float b) {
  return __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, Fp8Traits<Elem>::kInterp);
}

// Element of a non-finite block (scale 0xFF): NaN -> NaN, Inf -> Inf (E5M2) or NaN
// (E4M3), finite -> +-0; the sign is kept.
template <DType Elem>
__device__ __forceinline__ std::uint32_t encode_in_nan_block(float v) {
  const std::uint32_t bits = __float_as_uint(v);
  const std::uint32_t sign = (bits >> 24) & 0x80u;
  const std::uint32_t a = bits & kAbsMask;
  if (a < kInfBits) return sign;
  return sign | (a > kInfBits ? 0x7Fu : Fp8Traits<Elem>::kNanOrInfCode);
}

// Encodes N (even) values of one block with its scale into N bytes packed in N/4 words.
template <DType Elem, int N>
__device__ __forceinline__ void encode_block_part(const float* v, const BlockScale& s,
                                                  std::uint32_t* words) {
  static_assert(N % 4 == 0, "whole words");
  if (!s.nonfinite) {
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
      const std::uint32_t lo = encode2<Elem>(__fmul_rn(v[4 * i], s.inv), __fmul_rn(v[4 * i + 1], s.inv));
      const std::uint32_t hi = encode2<Elem>(__fmul_rn(v[4 * i + 2], s.inv), __fmul_rn(v[4 * i + 3], s.inv));
      words[i] = lo | (hi << 16);
    }
  } else {
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
      words[i] = encode_in_nan_block<Elem>(v[4 * i]) |
                 (encode_in_nan_block<Elem>(v[4 * i + 1]) << 8) |
                 (encode_in_nan_block<Elem>(v[4 * i + 2]) << 16) |
                 (encode_in_nan_block<Elem>(v[4 * i + 3]) << 24);
    }
  }
}

// Encodes the W raw words (2W values of 16 bits, or W fp32) of one block part: W/2 or W/4
// output words, codes in element order.
template <typename T, DType Elem, int W>
__device__ __forceinline__ void encode_words(const std::uint32_t* w, const BlockScale& s,
                                             std::uint32_t* out) {
  if constexpr (sizeof(T) == 4) {
    static_assert(W % 4 == 0, "whole output words");
    float v[W];
#pragma unroll
    for (int i = 0; i < W; ++i) v[i] = __uint_as_float(w[i]);
    encode_block_part<Elem, W>(v, s, out);
  } else {
    static_assert(W % 2 == 0, "whole output words");
    if (!s.nonfinite) {
#pragma unroll
      for (int i = 0; i < W / 2; ++i) {
        const float2 a = word_to_float2<T>(w[2 * i]);
        const float2 b = word_to_float2<T>(w[2 * i + 1]);
        out[i] = encode2<Elem>(__fmul_rn(a.x, s.inv), __fmul_rn(a.y, s.inv)) |
                 (encode2<Elem>(__fmul_rn(b.x, s.inv), __fmul_rn(b.y, s.inv)) << 16);
      }
    } else {
#pragma unroll
      for (int i = 0; i < W / 2; ++i) {
        const float2 a = word_to_float2<T>(w[2 * i]);
        const float2 b = word_to_float2<T>(w[2 * i + 1]);
        out[i] = encode_in_nan_block<Elem>(a.x) | (encode_in_nan_block<Elem>(a.y) << 8) |
                 (encode_in_nan_block<Elem>(b.x) << 16) | (encode_in_nan_block<Elem>(b.y) << 24);
      }
    }
  }
}

// ---- fp8 decoding -------------------------------------------------------------------------

// Two fp8 codes (low byte first) -> their exact values (every fp8 value is an fp16 value;
// cvt.rn.f16x2.{e4m3x2,e5m2x2}, PTX ISA 9.7.9.21).
template <DType Elem>
__device__ __forceinline__ float2 decode2(std::uint32_t two_codes) {
  const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(
      static_cast<__nv_fp8x2_storage_t>(two_codes & 0xFFFFu), Fp8Traits<Elem>::kInterp);
  return __half22float2(__half2(h));
}

// 2^(s-127) as an fp32 (byte 0 is the subnormal 2^-127); NaN for 0xFF.
__device__ __forceinline__ float scale_value(std::uint32_t s) {
  if (s == kScaleNaN) return __uint_as_float(0x7FC00000u);
  return s == 0 ? __uint_as_float(0x00400000u) : __uint_as_float(s << 23);
}

// Output conversions. code * 2^(s-127) is exact in fp32 (4 significant bits, lowest bit
// >= 2^-143) unless it overflows to Inf, so the one rounding is the conversion to Out.
// NaN (NaN element or NaN scale) is the positive quiet NaN of the output type, as in the
// CPU reference.
template <typename Out>
__device__ __forceinline__ std::uint32_t out_bits(float p);
template <>
__device__ __forceinline__ std::uint32_t out_bits<float>(float p) {
  return p != p ? 0x7FC00000u : __float_as_uint(p);
}
template <>
__device__ __forceinline__ std::uint32_t out_bits<__nv_bfloat16>(float p) {
  return p != p ? 0x7FC0u : __bfloat16_as_ushort(__float2bfloat16_rn(p));
}
template <>
__device__ __forceinline__ std::uint32_t out_bits<__half>(float p) {
  return p != p ? 0x7E00u : __half_as_ushort(__float2half_rn(p));
}

// True when any of the 4 codes in `w` is a NaN: E4M3 NaN is s.1111.111, E5M2 NaN is
// s.11111.{01,10,11}. With the sign bits cleared, adding 1 (E4M3) or 3 (E5M2) to each byte
// carries into bit 7 exactly for those codes.
template <DType Elem>
__device__ __forceinline__ bool has_nan_code(std::uint32_t w) {
  constexpr std::uint32_t kAdd = Elem == DType::E4M3 ? 0x01010101u : 0x03030303u;
  return (((w & 0x7F7F7F7Fu) + kAdd) & 0x80808080u) != 0;
}

// Two finite-or-infinite products (no NaN) in the output type: fp32 as is, or packed
// bf16x2 / f16x2 (low half first) by one round-to-nearest-even conversion.
template <typename Out>
__device__ __forceinline__ std::uint32_t pack2_no_nan(float a, float b) {
  if constexpr (std::is_same_v<Out, __nv_bfloat16>) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  } else {
    const __half2 h = __floats2half2_rn(a, b);
    return *reinterpret_cast<const std::uint32_t*>(&h);
  }
}

}  // namespace mxgemm::cuda
