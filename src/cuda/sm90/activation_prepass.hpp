// The activation side of the weight-streaming GEMM: activation rows as bf16 in the permuted
// K order of mainloop.cuh, ready for TMA as wgmma's B operand (MXFP8 rows dequantized,
// BF16 rows reordered).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// a (M x K, validated) -> out (M x round_up(K, 32) bf16 bits, row stride `out_stride`
// elements, a multiple of 32); elements past K are written as zero.
void launch_activation_prepass(const ConstMxOperand& a, std::uint16_t* out, std::int64_t out_stride,
                               cudaStream_t stream);

// a -> its fp16 codes (unscaled, exact) in the same layout, and its block scales as fp32 in
// scales[blk * scales_stride + row] (blk < ceil(K/32), row < M).
void launch_activation_codes_prepass(const ConstMxOperand& a, std::uint16_t* out, std::int64_t out_stride,
                                     float* scales, std::int64_t scales_stride, cudaStream_t stream);

// The weight-only GEMM's activation: a (M x K BF16, validated) -> the same permuted layout,
// values unchanged (no rounding: bf16 in, bf16 out).
void launch_activation_prepass(const ConstMatrixView& a, std::uint16_t* out, std::int64_t out_stride,
                               cudaStream_t stream);

}  // namespace mxgemm::sm90
