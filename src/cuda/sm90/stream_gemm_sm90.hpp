// Host entry of the sm_90a weight-streaming MXFP8 GEMM for small M. Arguments are already
// validated.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// D = alpha * A x B^T, any M: up to 16 rows as fp16 codes, more as bf16 values in tiles of
// up to 128 rows (stream_gemm_config.cuh), the activation dequantized by a pre-pass.
void launch_stream_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                        const MatrixView& d, cudaStream_t stream);

// D = alpha * A x dequant(W)^T (+ bias) with A BF16, or FP16 with an E4M3 W (validated), any
// M: the activation read in place by TMA when its address and row pitch allow, else copied by
// a pre-pass. FP16 activations take the fp16 values form (stream_gemm_kernel.cuh's kF16X).
void launch_stream_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                               const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream);

// One instantiation per padded width and activation form (stream_gemm_config.cuh: kCodes;
// kPermutedX: values in the permuted K order, stream_gemm_kernel.cuh), each width in its own
// translation unit (stream_gemm_m*.cu; kSplitK, the K split among a CTA's four warpgroups:
// stream_gemm_split_*.cu). tma_sx is read in the codes form only. x_dtype FP16 runs the
// natural-order values instances in fp16 (kF16X).
// Whether an instance of this form runs a launch in the fp16 values form (kF16X): FP16
// activations in the natural-order values instances. Its sums carry 2^kF16WeightShift, which
// the launcher takes out of alpha (StreamGemmParams::alpha_scale).
template <bool kCodes, bool kPermutedX>
constexpr bool runs_f16_values(DType x_dtype) {
  return !kCodes && !kPermutedX && x_dtype == DType::FP16;
}

template <int kMPad, bool kCodes, bool kPermutedX = false, bool kSplitK = false>
void launch_stream_kernel(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                          const StreamGemmParams& p, DType w_dtype, DType x_dtype, cudaStream_t stream);

}  // namespace mxgemm::sm90
