// Epilogue of the sm_90a kernels that compute D^T = W x X^T with the weight as the MMA's
// 16-row A operand (the streaming kernel's wgmma, the skinny kernel's mma.sync): both leave a
// warp's accumulator in the same layout, acc[4j + 2h + e] = D^T row (lane / 4 + 8h), column
// (8j + 2 (lane % 4) + e), which is stored transposed into D. P is either kernel's parameter
// struct: its m, n and TransposedOutput out (mxfp8_gemm_params.hpp).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/sm90/mainloop.cuh"  // convert_out
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

__device__ __forceinline__ float bias_at(const TransposedOutput& o, int n) {
  switch (o.bias_dtype) {
    case DType::FP32: return static_cast<const float*>(o.bias)[n];
    case DType::BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(o.bias)[n]);
    default: return __half2float(static_cast<const __half*>(o.bias)[n]);
  }
}

// Writes one warp's 16 weight rows (from n0) x kMPad activation rows (from m0) of D^T into D
// (M x N, row-major), alpha (and the bias, in one fused rounding) applied, masked to M x N.
template <typename T, int kAcc, typename P>
__device__ __forceinline__ void store_transposed(const P& p, const float (&acc)[kAcc],
                                                 float alpha, int m0, int n0, int lane) {
  T* d = static_cast<T*>(p.out.d);
  const int q = lane & 3;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int n = n0 + (lane >> 2) + 8 * half;
    if (n >= p.n) continue;
    const bool has_bias = p.out.bias != nullptr;
    const float b = has_bias ? bias_at(p.out, n) : 0.0f;
    auto value = [&](float v) { return has_bias ? fmaf(alpha, v, b) : alpha * v; };
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
      const int m = m0 + 8 * j + 2 * q;
      if (m < p.m) d[static_cast<std::int64_t>(m) * p.out.ldd + n] = convert_out<T>(value(acc[4 * j + 2 * half]));
      if (m + 1 < p.m)
        d[static_cast<std::int64_t>(m + 1) * p.out.ldd + n] = convert_out<T>(value(acc[4 * j + 2 * half + 1]));
    }
  }
}

template <int kAcc, typename P>
__device__ __forceinline__ void store_tile_transposed(const P& p, const float (&acc)[kAcc],
                                                      float alpha, int m0, int n0, int lane) {
  switch (p.out.d_dtype) {
    case DType::FP32: store_transposed<float>(p, acc, alpha, m0, n0, lane); break;
    case DType::BF16: store_transposed<__nv_bfloat16>(p, acc, alpha, m0, n0, lane); break;
    default: store_transposed<__half>(p, acc, alpha, m0, n0, lane); break;
  }
}

}  // namespace mxgemm::sm90
