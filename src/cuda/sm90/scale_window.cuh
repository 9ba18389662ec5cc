// The range of E8M0 scales inside which the sm_90a fast paths are exact.
//
// The fast paths multiply bf16 values (code x 2^(s-127), or the fp16 codes with fp32 block
// scales) on the tensor cores and sum in fp32. That is exact, up to the fp32 summation, while
// every dequantized element and every product of two of them is a normal number. A scale
// byte inside the window keeps every element of its block within [2^-63, 2^63) (E4M3 codes
// span [2^-9, 448], E5M2 codes [2^-16, 57344]), so each product lies in [2^-126, 2^126).
// A block whose scale lies outside, with a nonzero code, sends its output tile to the exact
// fp64 path (exact_outputs.cuh). Two bytes stay on the fast path wherever they are, because
// the fast paths already treat them exactly: 0xFF (a NaN block) and any scale of a block of
// zero codes (the quantizer gives an all-zero block the scale byte 0). The exception is the
// streaming kernel's scale lanes (LaneScalesBf16 in mainloop.cuh), which make 0xFF +Inf: there
// a NaN block with nonzero codes takes the exact path too (needs_exact_path<kElem, true>).
#pragma once

#include <cstdint>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// The window is 127 +- kScaleWindowHalfWidth<kElem>: bytes 73..181 for E4M3, 80..174 for
// E5M2 (code extremes 2^-9..2^8.8 and 2^-16..2^15.8 kept within 2^+-63).
template <DType kElem>
constexpr int kScaleWindowHalfWidth = kElem == DType::E4M3 ? 54 : 47;

// Bit 7 of each byte set where the E8M0 byte of `word` lies outside the window: |s - 127|
// (VABSDIFF4) plus 127 - half width reaches 128 exactly when |s - 127| > half width, and
// never carries into the next byte (128 + 127 - 47 < 256).
template <DType kElem>
__device__ __forceinline__ std::uint32_t scales_outside_window(std::uint32_t word) {
  constexpr std::uint32_t kBias = 0x01010101u * static_cast<std::uint32_t>(127 - kScaleWindowHalfWidth<kElem>);
  return (__vabsdiffu4(word, 0x7F7F7F7Fu) + kBias) & 0x80808080u;
}

template <DType kElem>
__device__ __forceinline__ bool scale_outside_window(std::uint32_t s) {
  const int d = static_cast<int>(s) - 127;
  return d > kScaleWindowHalfWidth<kElem> || d < -kScaleWindowHalfWidth<kElem>;
}

// Whether a block with scale byte s and codes whose magnitude bits OR to `code_bits` must be
// recomputed exactly (see the top of this file). kNanScaleExact: also a NaN block (0xFF) with
// nonzero codes, for a fast path that turns 0xFF into +Inf (the streaming kernel's values
// form: e8m0_quad_to_bf16_lanes).
template <DType kElem, bool kNanScaleExact = false>
__device__ __forceinline__ bool needs_exact_path(std::uint32_t s, std::uint32_t code_bits) {
  return (kNanScaleExact || s != 0xFFu) && code_bits != 0 && scale_outside_window<kElem>(s);
}

// The fp16 values form (weight-only FP16 activations, stream_gemm_kernel.cuh's kF16X): the
// weight enters the fp16 wgmma as code x 2^e, e = s - 127 + kF16WeightShift, and D takes
// alpha x 2^-kF16WeightShift (exact: a power of two). That fp16 value is exact while e lies
// in [-14, 6] for E4M3 (the subnormal step 2^-9 x 2^-14 = 2^-23 is a multiple of fp16's 2^-24;
// 448 x 2^6 = 28672 < 65504) and in [-8, 0] for E5M2 (codes 2^-16..57344). The shift puts that
// window over real weights: bytes 103..123 for E4M3 (block maxima 448 x 2^-24..2^-4, about
// 2.7e-5..28), 109..117 for E5M2, both centred on byte 113. A block outside it with a nonzero
// code, and a NaN block (0xFF) whatever its codes, send their tile to the exact path
// (needs_exact_path_f16).
constexpr int kF16WeightShift = 10;
constexpr int kF16WindowCenter = 127 - kF16WeightShift - 4;  // e = -4
template <DType kElem>
constexpr int kF16WindowHalfWidth = kElem == DType::E4M3 ? 10 : 4;
static_assert(kF16WindowCenter - kF16WindowHalfWidth<DType::E4M3> - 127 + kF16WeightShift == -14 &&
                  kF16WindowCenter + kF16WindowHalfWidth<DType::E4M3> - 127 + kF16WeightShift == 6,
              "E4M3 codes x 2^e are exact fp16 values for e in [-14, 6]");
static_assert(kF16WindowCenter - kF16WindowHalfWidth<DType::E5M2> - 127 + kF16WeightShift == -8 &&
                  kF16WindowCenter + kF16WindowHalfWidth<DType::E5M2> - 127 + kF16WeightShift == 0,
              "E5M2 codes x 2^e are exact fp16 values for e in [-8, 0]");

// Bit 7 of each byte set where the E8M0 byte of `word` lies outside the fp16 window. Each
// byte is first moved by 127 - kF16WindowCenter without carries between bytes, which centres
// the window on 127 as scales_outside_window's test needs (bytes that wrap lie outside).
template <DType kElem>
__device__ __forceinline__ std::uint32_t scales_outside_f16_window(std::uint32_t word) {
  constexpr std::uint32_t kMove = 0x01010101u * static_cast<std::uint32_t>(127 - kF16WindowCenter);
  constexpr std::uint32_t kBias = 0x01010101u * static_cast<std::uint32_t>(127 - kF16WindowHalfWidth<kElem>);
  const std::uint32_t moved = ((word & 0x7F7F7F7Fu) + kMove) ^ (word & 0x80808080u);
  return (__vabsdiffu4(moved, 0x7F7F7F7Fu) + kBias) & 0x80808080u;
}

template <DType kElem>
__device__ __forceinline__ bool scale_outside_f16_window(std::uint32_t s) {
  const int d = static_cast<int>(s) - kF16WindowCenter;
  return d > kF16WindowHalfWidth<kElem> || d < -kF16WindowHalfWidth<kElem>;
}

// Whether a block must be recomputed exactly on the fp16 values form: a NaN scale whatever
// the codes (its lanes are finite, e8m0_quad_to_f16_lanes), any other scale outside the
// window with a nonzero code.
template <DType kElem>
__device__ __forceinline__ bool needs_exact_path_f16(std::uint32_t s, std::uint32_t code_bits) {
  return s == 0xFFu || (code_bits != 0 && scale_outside_f16_window<kElem>(s));
}

// The fp16 values form of an E4M3 MXFP8 activation (activation_prepass.cu): row r's blocks
// enter as fp16 code x 2^(s - top_r + kF16RowTopExponent), top_r its largest scale byte inside
// the window above, so that its largest block reaches 448 x 2^7 = 57344 (< 65504) and a block
// kF16RowSpan bytes below it still holds E4M3's least subnormal 2^-9 x 2^-15 = 2^-24, fp16's.
// A row with a nonzero block further below is marked for the exact path. The weight's
// kF16WeightShift and the row's power of two come out at the store: sums times
// 2^(top_r - kF16RowScaleBias) (exact: top_r in 73..181 keeps it inside fp32's normals).
constexpr int kF16RowTopExponent = 7;
constexpr int kF16RowSpan = 22;
constexpr int kF16RowScaleBias = 127 + kF16RowTopExponent + kF16WeightShift;
static_assert(kF16RowTopExponent - kF16RowSpan == -15, "E4M3's subnormal step 2^-9 x 2^-15 is fp16's 2^-24");
static_assert(127 + 127 - kScaleWindowHalfWidth<DType::E4M3> - kF16RowScaleBias >= 1 &&
                  127 + 127 + kScaleWindowHalfWidth<DType::E4M3> - kF16RowScaleBias <= 254,
              "every row's power of two is an fp32 normal");

// The magnitude bits of 4 fp8 codes (the sign bit dropped: -0 is zero).
__device__ __forceinline__ std::uint32_t code_magnitudes(std::uint32_t word) { return word & 0x7F7F7F7Fu; }

}  // namespace mxgemm::sm90
