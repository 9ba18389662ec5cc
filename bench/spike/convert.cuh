// Exact E4M3 -> bf16 dequantization with an E8M0 block scale, for the design-B inner loop.
//
// The bit trick. E4M3 (s.eeee.mmm, bias 7) and bf16 (s.eeeeeeee.mmmmmmm, bias 127) both
// encode subnormals as 0.m x 2^(1-bias) when the exponent field is 0. Moving the 7
// magnitude bits of an E4M3 byte to bf16 bits 4..10 (exponent field <- 0000eeee, top three
// mantissa bits <- mmm) and its sign to bit 15 therefore gives, for EVERY finite E4M3
// value x (normals, subnormals and +-0 alike), the bf16 number x * 2^-120 exactly:
//   normal:    1.mmm x 2^(e-127)  = (1.mmm x 2^(e-7)) x 2^-120
//   subnormal: 0.mmm x 2^(-126)   = (0.mmm x 2^(-6))  x 2^-120   (a bf16 subnormal)
// One bf16 multiply by the power of two f = 2^(s+120), s = scale_byte - 127, then gives
// x * 2^s: a product by a power of two is exact whenever the result is representable,
// and bf16 arithmetic on sm_90 keeps subnormal inputs (no flush-to-zero for bf16).
// f is a finite bf16 iff s + 120 <= 127, i.e. scale byte <= 134 (dequantized |values| up
// to 448 * 2^7 = 57344). Larger scale bytes need a second multiply (f1 = 2^127, then
// f2 = 2^(s-7)); e4m3x4_to_bf16x2x2_scaled2 below does that (full E8M0 range except
// the NaN byte 0xFF).
// Not handled by the arithmetic: E4M3 NaN (0x7F/0xFF) becomes a finite bf16 and scale
// byte 0xFF is not a number: NaN propagation must be done by per-row / per-column flags
// (a NaN in a[m,:] or sa[m,:] makes row m of D NaN; likewise b / sb and column n).
//
// Byte order. x holds four consecutive fp8 bytes b0 (bits 0-7) .. b3 (bits 24-31). The
// cheapest packing gives lo = {b0 -> low half, b2 -> high half} and hi = {b1, b3}: a
// fixed K permutation, absorbed by applying the SAME permutation to both GEMM operands
// (see spike.cu: the register-A fragment and the converted smem B use it identically).
#pragma once
#include <cuda_fp16.h>
#include <cstdint>
#include "ptx.cuh"

namespace spike {

// bf16x2 scale word for scale byte e (<= 134): both halves 2^(e-127+120) = 2^(e-7).
__host__ __device__ inline uint32_t bf16x2_scale_word(uint32_t e) {
  const uint32_t h = (e + 120u) << 7;  // bf16 exponent field e+120 (1..254 for e <= 134)
  return h | (h << 16);
}

// Sign to bit 15/31, magnitude bits (exponent + mantissa) to bits 4..10 / 20..26.
__device__ __forceinline__ uint32_t e4m3_pair_hi_bits(uint32_t x) {  // {b1, b3}
  return (x & 0x80008000u) | ((x >> 4) & 0x07f007f0u);
}
__device__ __forceinline__ uint32_t e4m3_pair_lo_bits(uint32_t x) {  // {b0, b2}
  return ((x << 8) & 0x80008000u) | ((x << 4) & 0x07f007f0u);
}

// Four E4M3 bytes and a bf16x2 scale word f = {2^(s+120)} -> two exact bf16x2 words.
__device__ __forceinline__ void e4m3x4_to_bf16x2x2_scaled(uint32_t x, uint32_t f, uint32_t& lo,
                                                          uint32_t& hi) {
  lo = mul_bf16x2(e4m3_pair_lo_bits(x), f);
  hi = mul_bf16x2(e4m3_pair_hi_bits(x), f);
}
// Full-range variant: two multiplies (f1 = 2^(min(s,7)+120), f2 = 2^(max(s-7,0))).
__device__ __forceinline__ void e4m3x4_to_bf16x2x2_scaled2(uint32_t x, uint32_t f1, uint32_t f2,
                                                           uint32_t& lo, uint32_t& hi) {
  lo = mul_bf16x2(mul_bf16x2(e4m3_pair_lo_bits(x), f1), f2);
  hi = mul_bf16x2(mul_bf16x2(e4m3_pair_hi_bits(x), f1), f2);
}

// Alternative through the hardware converter: e4m3x2 -> f16x2 (exact), f16 -> f32,
// f32 multiply by 2^s (exact, any s in the fp32 range), pack to bf16x2 (exact when
// representable). Same {b0,b2} / {b1,b3} pairing so it can be swapped in.
__device__ __forceinline__ void e4m3x4_to_bf16x2x2_hw(uint32_t x, float scale, uint32_t& lo,
                                                      uint32_t& hi) {
  const uint32_t h01 = cvt_f16x2_e4m3x2(static_cast<uint16_t>(x & 0xffffu));  // {b0, b1}
  const uint32_t h23 = cvt_f16x2_e4m3x2(static_cast<uint16_t>(x >> 16));      // {b2, b3}
  const float f0 = __half2float(__ushort_as_half(static_cast<unsigned short>(h01 & 0xffffu)));
  const float f1 = __half2float(__ushort_as_half(static_cast<unsigned short>(h01 >> 16)));
  const float f2 = __half2float(__ushort_as_half(static_cast<unsigned short>(h23 & 0xffffu)));
  const float f3 = __half2float(__ushort_as_half(static_cast<unsigned short>(h23 >> 16)));
  lo = cvt_bf16x2_f32(f2 * scale, f0 * scale);
  hi = cvt_bf16x2_f32(f3 * scale, f1 * scale);
}

}  // namespace spike
