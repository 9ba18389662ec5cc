// The exact path of the sm_90a streaming and skinny kernels: output elements recomputed from
// the operands as the caller passed them, in fp64.
//
// It runs for an output tile only when a block feeding it has a scale outside the window of
// scale_window.cuh, where the fast paths' bf16 values or fp32 products would leave their
// range. In fp64 every dequantized element (a code times 2^-127..2^127) and every product of
// two is exact, so the result is the CPU reference's (src/cpu/reference_gemm.cpp) up to the
// fp64 summation order: alpha and the bias applied in fp64, one rounding into D. It is slow
// (one thread per output, K products each, no tensor cores), which is acceptable for the
// tiles that need it: real MXFP8 data has no such blocks, only all-zero ones, which stay on
// the fast path.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/fp8_convert.cuh"
#include "cuda/sm90/mainloop.cuh"  // ScaleRow
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/scale_window.cuh"
#include "cuda/sm90/stream_epilogue.cuh"  // bias_at

namespace mxgemm::sm90 {

// 2^(s-127) in fp64 for an E8M0 byte (exact for every byte), NaN for 0xFF.
__device__ __forceinline__ double e8m0_to_double(std::uint32_t s) {
  return s == 0xFFu ? __longlong_as_double(0x7FF8000000000000ll)
                    : __longlong_as_double(static_cast<long long>(s + 1023 - 127) << 52);
}

// A BF16 or FP16 element's bits as its value (exact in fp32).
__device__ __forceinline__ float wide_element_value(DType dtype, unsigned short bits) {
  return dtype == DType::BF16 ? __bfloat162float(__ushort_as_bfloat16(bits)) : __half2float(__ushort_as_half(bits));
}

// Elements k..k+3 of row `row` of `op` as fp64 (k a multiple of 4), unscaled.
__device__ __forceinline__ void exact_elements(const ExactOperand& op, std::int64_t row, int k, double (&v)[4]) {
  if (op.dtype == DType::E4M3 || op.dtype == DType::E5M2) {
    const std::uint32_t word =
        *reinterpret_cast<const std::uint32_t*>(static_cast<const std::uint8_t*>(op.data) + row * op.stride + k);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::uint16_t pair = cuda::byte_pair(word, half);
      const std::uint32_t h2 = op.dtype == DType::E4M3 ? cuda::fp8x2_to_f16x2<DType::E4M3>(pair)
                                                       : cuda::fp8x2_to_f16x2<DType::E5M2>(pair);
      v[2 * half] = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 & 0xFFFFu)));
      v[2 * half + 1] = __half2float(__ushort_as_half(static_cast<unsigned short>(h2 >> 16)));
    }
    return;
  }
  const auto* src = static_cast<const unsigned short*>(op.data) + row * op.stride + k;
#pragma unroll
  for (int j = 0; j < 4; ++j) v[j] = wide_element_value(op.dtype, src[j]);
}

// The activation elements that a prepacked weight's columns p..p+3 (p a multiple of 4) meet:
// elements e, e + 1, e + 8, e + 9 for e = prepacked_element(p) (layout.hpp), as fp64. The
// activation is BF16 or FP16 (only the weight-only GEMM takes a prepacked weight).
__device__ __forceinline__ void exact_prepacked_partners(const ExactOperand& x, std::int64_t row, int p, double (&v)[4]) {
  const auto* src = static_cast<const unsigned short*>(x.data) + row * x.stride + prepacked_element(p);
  const int at[4] = {0, 1, 8, 9};
#pragma unroll
  for (int j = 0; j < 4; ++j) v[j] = wide_element_value(x.dtype, src[at[j]]);
}

template <typename T>
__device__ __forceinline__ T exact_out(double v);
template <>
__device__ __forceinline__ float exact_out<float>(double v) { return __double2float_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 exact_out<__nv_bfloat16>(double v) { return __double2bfloat16(v); }
template <>
__device__ __forceinline__ __half exact_out<__half>(double v) { return __double2half(v); }

// Whether weight rows n_first and n_first + 8 (rows past N skipped) have a block in blocks
// [b0, b1) that needs the exact path (needs_exact_path), from the weight's chunked scales and
// its codes as the caller passed them: the rare follow-up of the streaming kernel's watch.
template <DType kElemW, bool kNanScaleExact = false, bool kF16Window = false>
__device__ __forceinline__ bool weight_rows_need_exact(const ExactOperand& w, const ChunkedScales& sw, int n_rows, int k,
                                                       int n_first, int b0, int b1) {
  const auto* weight = static_cast<const std::uint8_t*>(w.data);
  bool exact = false;
  for (int half = 0; half < 2; ++half) {
    const int n = n_first + 8 * half;
    if (n >= n_rows) continue;  // padding, not scales
    const std::uint8_t* row_chunks =
        sw.data + static_cast<std::int64_t>(n / 128) * sw.col_tiles * kScaleChunkBytes + chunk_row_offset(n % 128);
    for (int g = b0 / 4; g < (b1 + 3) / 4; ++g) {
      const std::uint32_t word = *reinterpret_cast<const std::uint32_t*>(row_chunks + g * kScaleChunkBytes);
      const std::uint32_t outside = kF16Window ? scales_outside_f16_window<kElemW>(word) : scales_outside_window<kElemW>(word);
      for (int b = 0; b < 4; ++b) {
        const int blk = 4 * g + b;
        if (blk < b0 || blk >= b1 || (outside >> (8 * b + 7) & 1u) == 0) continue;
        const uint4* codes = reinterpret_cast<const uint4*>(weight + n * w.stride + blk * 32);
        const uint4 lo = __ldg(codes);
        const uint4 hi = blk * 32 + 16 < k ? __ldg(codes + 1) : make_uint4(0, 0, 0, 0);  // K % 32 == 16
        const std::uint32_t s = (word >> (8 * b)) & 0xFFu;
        const std::uint32_t code_bits = code_magnitudes(lo.x | lo.y | lo.z | lo.w | hi.x | hi.y | hi.z | hi.w);
        if constexpr (kF16Window) exact |= needs_exact_path_f16<kElemW>(s, code_bits);
        else exact |= needs_exact_path<kElemW, kNanScaleExact>(s, code_bits);
      }
    }
  }
  return exact;
}

// alpha * (the fp64 dot product of activation row m and weight row n) (+ bias[n]), rounded
// once into T.
template <typename T>
__device__ __forceinline__ void exact_output(const ExactGemm& g, const TransposedOutput& out, double alpha, int m,
                                             int n) {
  const std::int64_t xr = static_cast<std::int64_t>(g.x_row0) + m;
  const bool x_scaled = g.x.dtype == DType::E4M3 || g.x.dtype == DType::E5M2;
  const ScaleRow sx(g.x.scales, static_cast<int>(xr), g.x.rows, g.blocks);
  const ScaleRow sw(g.w.scales, n, g.w.rows, g.blocks);
  double acc = 0.0;
  for (int blk = 0; blk < g.blocks; ++blk) {
    double block = 0.0;
    const int k_end = blk * 32 + 32 < g.k ? blk * 32 + 32 : g.k;
    for (int k = blk * 32; k < k_end; k += 4) {
      double a[4], b[4];
      exact_elements(g.w, n, k, b);
      if (g.w.prepacked) exact_prepacked_partners(g.x, xr, k, a);
      else exact_elements(g.x, xr, k, a);
#pragma unroll
      for (int j = 0; j < 4; ++j) block = fma(a[j], b[j], block);  // the product is exact: one rounding
    }
    // Times a power of two (2^-254..2^254 fits fp64): exact.
    acc += block * ((x_scaled ? e8m0_to_double(sx.load(blk)) : 1.0) * e8m0_to_double(sw.load(blk)));
  }
  double v = acc * alpha;
  if (out.bias != nullptr) v += bias_at(out, n);
  static_cast<T*>(out.d)[static_cast<std::int64_t>(m) * out.ldd + n] = exact_out<T>(v);
}

// The outputs of activation rows [m0, m0 + m_count) x weight rows [n0, n0 + n_count) of D
// (both counts already clipped to M and N), shared among `threads` threads (this one: tid).
// The kernels call it after their work loop, for the tiles they listed (inside the loop its
// code made ptxas spill the mainloop's registers).
__device__ __forceinline__ void exact_outputs(const ExactGemm& g, const TransposedOutput& out, int m0, int m_count,
                                           int n0, int n_count, int tid, int threads) {
  const double alpha = __ldg(out.alpha);
  const int count = m_count * n_count;
  // Weight rows fastest: the threads of a warp share the activation row.
  for (int i = tid; i < count; i += threads) {
    const int m = m0 + i / n_count, n = n0 + i % n_count;
    switch (out.d_dtype) {
      case DType::FP32: exact_output<float>(g, out, alpha, m, n); break;
      case DType::BF16: exact_output<__nv_bfloat16>(g, out, alpha, m, n); break;
      default: exact_output<__half>(g, out, alpha, m, n); break;
    }
  }
}

}  // namespace mxgemm::sm90
