// The 192- and 256-row tiles' promoted sums (StreamGemmConfig::kPromoteInGlobal): a running fp32
// sum t kept as a high part, t rounded toward zero to bf16 (in shared memory, two a word), plus
// the exact rest t - high, which stays in the wgmma accumulator and on which the next chain of
// K goes on. Accumulators 2j and 2j + 1 share word j (low half, high half).
#pragma once

#include <cstdint>

namespace mxgemm::sm90 {

__device__ __forceinline__ float high_part_low(std::uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float high_part_high(std::uint32_t w) { return __uint_as_float(w & 0xFFFF0000u); }

// High parts before the first promotion: -0.0, which adds to any x as nothing (-0 + x = x,
// signed zeros included).
__device__ __forceinline__ uint4 negative_zero_high_parts() {
  return make_uint4(0x80008000u, 0x80008000u, 0x80008000u, 0x80008000u);
}

// One word: t = high + a (one fp32 rounding, as each of the global slot's adds had), the new
// high part t rounded toward zero (finite for finite t: no overflow to Inf; Inf and NaN kept),
// and a = t - high, exact (the high part is t without its low 16 significand bits). Where t is
// Inf or NaN that difference is NaN: the rest becomes 0 and the high part carries t.
__device__ __forceinline__ std::uint32_t split_high_part(float& a0, float& a1, std::uint32_t high) {
  const float t0 = high_part_low(high) + a0;
  const float t1 = high_part_high(high) + a1;
  std::uint32_t h;
  asm("cvt.rz.bf16x2.f32 %0, %1, %2;" : "=r"(h) : "f"(t1), "f"(t0));  // (t1 to the upper half)
  const float r0 = t0 - high_part_low(h);
  const float r1 = t1 - high_part_high(h);
  a0 = r0 == r0 ? r0 : 0.0f;
  a1 = r1 == r1 ? r1 : 0.0f;
  return h;
}

// Accumulators [base, base + 8) split against their group of high parts; returns the new group.
template <int kAcc>
__device__ __forceinline__ uint4 split_high_parts(float (&acc)[kAcc], int base, uint4 high) {
  uint4 h;
  h.x = split_high_part(acc[base], acc[base + 1], high.x);
  h.y = split_high_part(acc[base + 2], acc[base + 3], high.y);
  h.z = split_high_part(acc[base + 4], acc[base + 5], high.z);
  h.w = split_high_part(acc[base + 6], acc[base + 7], high.w);
  return h;
}

// The sum at the end: accumulators [base, base + 8) plus their high parts (one fp32 rounding).
template <int kAcc>
__device__ __forceinline__ void add_high_parts(float (&acc)[kAcc], int base, uint4 high) {
  const std::uint32_t w[4] = {high.x, high.y, high.z, high.w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    acc[base + 2 * j] = high_part_low(w[j]) + acc[base + 2 * j];
    acc[base + 2 * j + 1] = high_part_high(w[j]) + acc[base + 2 * j + 1];
  }
}

}  // namespace mxgemm::sm90
