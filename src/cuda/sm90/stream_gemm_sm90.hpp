// Host entry of the sm_90a weight-streaming MXFP8 GEMM for small M. Arguments are already
// validated.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/kernel_override.hpp"
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
// translation unit (stream_gemm_m*.cu; kSplitK, the K split among a CTA's math warpgroups:
// stream_gemm_split_*.cu). tma_sx is read in the codes form only. f16_values runs the values
// instances in fp16 (kF16X, runs_f16_values).
// Whether a values instance of this K order runs a launch in the fp16 values form (kF16X), for
// E4M3 weights only: FP16 activations in the natural order (weight-only), E4M3 MXFP8 ones in the
// permuted order through their pre-pass, unless a test or the benchmark forces the bf16 form
// (detail::StreamMxValues), and BF16 ones where the launcher sent them to the fp16 form's
// pre-pass (x_f16_rows: bf16_rows_in_f16; otherwise they are in the bf16 form, permuted by
// their own copy where they reach this K order). Its sums carry 2^kF16WeightShift, which the launcher takes out of
// alpha (natural order: StreamGemmParams::alpha_scale) or of each activation row's power of two
// (permuted: StreamGemmParams::x_row_scale).
template <bool kCodes, bool kPermutedX>
bool runs_f16_values(DType x_dtype, DType w_dtype, bool x_f16_rows) {
  if constexpr (kCodes) return false;
  else if constexpr (kPermutedX)
    return x_dtype == DType::BF16 ? x_f16_rows
                                  : x_dtype == DType::E4M3 && w_dtype == DType::E4M3 &&
                                        detail::stream_mx_values() != detail::StreamMxValues::Bf16 &&
                                        detail::stream_mx_values() != detail::StreamMxValues::Bf16Permuted;
  else return x_dtype == DType::FP16;
}

// Whether m BF16 rows times an N x K E4M3 weight run faster in the fp16 values form, through
// its pre-pass (launch_activation_f16_rows_prepass), than read in place by the bf16 values
// form, on a device of `sms` SMs and `dram_bytes_per_s` peak memory bandwidth: the rule
// measured on the H200 and the H100 (stream_gemm_sm90.cu).
bool weight_only_f16_form_preferred(std::int64_t m, std::int64_t n, std::int64_t k, int sms, double dram_bytes_per_s);
// Whether m BF16 rows that the bf16 values form would read in place (the fp16 form not
// preferred) run faster copied into the permuted K order first
// (launch_activation_bf16_permuted_prepass): the rule measured on the H100 (stream_gemm_sm90.cu).
bool weight_only_bf16_permuted_preferred(std::int64_t m, std::int64_t n, std::int64_t k, int sms,
                                         double dram_bytes_per_s);

// The CTAs each 64-row tile's K is split among, in clusters, on the current device (of `sms`
// SMs), for an N x K weight and m_pad activation rows (split_k_cluster_ctas with the device's
// cluster occupancy; 1: no clusters). any_fill: wherever the clusters can run
// (detail::StreamSplitK::Clusters).
int split_k_cluster_ctas_on_device(std::int64_t n, std::int64_t k, int sms, bool any_fill, int m_pad = 32);
// The same for the 64-row values form's 128-row tiles of k_stages 128-K stages
// (wide_cluster_ctas).
int wide_cluster_ctas_on_device(std::int64_t n, std::int64_t k_stages, int sms, bool any_fill);

template <int kMPad, bool kCodes, bool kPermutedX = false, bool kSplitK = false>
void launch_stream_kernel(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                          const StreamGemmParams& p, DType w_dtype, bool f16_values, cudaStream_t stream);

}  // namespace mxgemm::sm90
