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

// Where accumulator register r of a lane lies in its warp's 16 weight rows x kMPad activation
// rows of D^T (the layout above): weight row `row` (0..15), activation row `col`.
struct AccCoord {
  int row, col;
};
__device__ __forceinline__ AccCoord acc_coord(int r, int lane) {
  return {(lane >> 2) + 8 * ((r >> 1) & 1), 8 * (r >> 2) + 2 * (lane & 3) + (r & 1)};
}

// alpha * v, plus the bias in one fused rounding.
__device__ __forceinline__ float out_value(float alpha, float v, bool has_bias, float bias) {
  return has_bias ? fmaf(alpha, v, bias) : alpha * v;
}

// Writes one warp's 16 weight rows (from n0) x kMPad activation rows (from m0) of D^T into D
// (M x N, row-major), alpha (and the bias, in one fused rounding) applied, masked to M x N.
template <typename T, int kAcc, typename P>
__device__ __forceinline__ void store_transposed(const P& p, const float (&acc)[kAcc],
                                                 float alpha, int m0, int n0, int lane) {
  T* d = static_cast<T*>(p.out.d);
  // Most tiles of a large GEMM lie inside M x N: no bounds checks there, and one running
  // pointer instead of the full offset per element (the checked loop below costs ~20
  // instructions an element: ~9% of a 256-row tile's time at K = 8192, ncu). Wide tiles only:
  // the narrow ones' epilogue is a small part of their time, and the 4-warpgroup shapes have
  // no registers to spare for it (ptxas spilled).
  if (kAcc >= 64 && m0 + 2 * kAcc <= p.m && n0 + 16 <= p.n) {
    const std::int64_t ldd = p.out.ldd;
    const AccCoord first = acc_coord(0, lane);
    const int n = n0 + first.row;
    const bool has_bias = p.out.bias != nullptr;
    const float b[2] = {has_bias ? bias_at(p.out, n) : 0.0f, has_bias ? bias_at(p.out, n + 8) : 0.0f};
    auto value = [&](float v, int half) { return out_value(alpha, v, has_bias, b[half]); };
    // Rows m and m + 1 of D; the second half's column n + 8 is an immediate offset from them.
    T* out = d + static_cast<std::int64_t>(m0 + first.col) * ldd + n;
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
      T* next_row = out + ldd;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        out[8 * half] = convert_out<T>(value(acc[4 * j + 2 * half], half));
        next_row[8 * half] = convert_out<T>(value(acc[4 * j + 2 * half + 1], half));
      }
      out += 8 * ldd;
    }
    return;
  }
  const bool has_bias = p.out.bias != nullptr;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int n = n0 + acc_coord(2 * half, lane).row;
    if (n >= p.n) continue;
    const float b = has_bias ? bias_at(p.out, n) : 0.0f;
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int r = 4 * j + 2 * half + e;
        const int m = m0 + acc_coord(r, lane).col;
        if (m < p.m) d[static_cast<std::int64_t>(m) * p.out.ldd + n] = convert_out<T>(out_value(alpha, acc[r], has_bias, b));
      }
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
