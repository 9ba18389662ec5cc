// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: the spin kernel that hides
// host overheads, and the kernels of the output checks.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "bench/options.hpp"  // i64

namespace mxgemm::bench {

// Device kernels: the spin that hides host overheads, and the checks.

__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

__device__ __forceinline__ float bf16_bits(std::uint16_t h) {
  return __uint_as_float(static_cast<std::uint32_t>(h) << 16);
}

// What compare_kernel accumulates over got vs ref (both BF16, same shape).
struct CompareSums {
  double err2;                    // sum (got - ref)^2 over entries finite in both
  double ref2;                    // sum ref^2 over the same entries
  unsigned long long nan_got;     // NaN in got
  unsigned long long nan_ref;     // NaN in ref
  unsigned long long nonfinite;   // exactly one side finite, or the infinities differ
  unsigned long long mismatches;  // |got - ref| > rel_tol * |ref| + abs_tol
  unsigned long long first_bad;   // smallest index of a mismatch (~0 when none)
  unsigned int max_diff_bits;     // max |got - ref| as fp32 bits (orders like the value)
};

__global__ void compare_kernel(const std::uint16_t* got, const std::uint16_t* ref, i64 n,
                               float rel_tol, float abs_tol, CompareSums* out) {
  double e2 = 0.0, r2 = 0.0;
  unsigned long long nan_g = 0, nan_r = 0, nonfinite = 0, bad = 0, first = ~0ull;
  float max_diff = 0.0f;
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x) {
    const float g = bf16_bits(got[i]), r = bf16_bits(ref[i]);
    nan_g += isnan(g);
    nan_r += isnan(r);
    if (isfinite(g) && isfinite(r)) {
      const double d = double(g) - double(r);
      e2 += d * d;
      r2 += double(r) * double(r);
      const float ad = fabsf(g - r);
      max_diff = fmaxf(max_diff, ad);
      if (ad > rel_tol * fabsf(r) + abs_tol) {
        ++bad;
        first = min(first, static_cast<unsigned long long>(i));
      }
    } else if (!(isnan(g) && isnan(r)) && g != r) {
      ++nonfinite;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    e2 += __shfl_down_sync(0xFFFFFFFFu, e2, off);
    r2 += __shfl_down_sync(0xFFFFFFFFu, r2, off);
    nan_g += __shfl_down_sync(0xFFFFFFFFu, nan_g, off);
    nan_r += __shfl_down_sync(0xFFFFFFFFu, nan_r, off);
    nonfinite += __shfl_down_sync(0xFFFFFFFFu, nonfinite, off);
    bad += __shfl_down_sync(0xFFFFFFFFu, bad, off);
    first = min(first, __shfl_down_sync(0xFFFFFFFFu, first, off));
    max_diff = fmaxf(max_diff, __shfl_down_sync(0xFFFFFFFFu, max_diff, off));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->err2, e2);
    atomicAdd(&out->ref2, r2);
    atomicAdd(&out->nan_got, nan_g);
    atomicAdd(&out->nan_ref, nan_r);
    atomicAdd(&out->nonfinite, nonfinite);
    atomicAdd(&out->mismatches, bad);
    atomicMin(&out->first_bad, first);
    atomicMax(&out->max_diff_bits, __float_as_uint(max_diff));
  }
}

// An FP32 or FP16 output rounded to BF16 (round to nearest even), for the checks.
__global__ void to_bf16_kernel(const void* src, bool fp32, i64 n, std::uint16_t* out) {
  for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const float v = fp32 ? static_cast<const float*>(src)[i] : __half2float(static_cast<const __half*>(src)[i]);
    out[i] = __bfloat16_as_ushort(__float2bfloat16_rn(v));
  }
}

__global__ void gather_kernel(const std::uint16_t* src, const i64* idx, std::uint16_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = src[idx[i]];
}

}  // namespace mxgemm::bench
