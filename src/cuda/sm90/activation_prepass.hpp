// The activation side of the weight-streaming GEMM: activation rows ready for TMA as wgmma's
// B operand (stream_gemm_config.cuh): MXFP8 rows dequantized to bf16 in the natural K
// order, or as fp16 codes in the permuted order of mainloop.cuh; BF16 rows copied when
// TMA cannot read them in place.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Where the MXFP8 pre-passes mark the rows (of the launch) with a block that needs the exact
// path (scale_window.cuh): rows[r] = generation. Unmarked rows keep whatever they held.
struct ExactRowMarks {
  unsigned int* rows;
  unsigned int generation;
};

// Rows [row0, row0 + rows) of a (M x K, validated) -> out (rows x round_up(K, 32) bf16 bits,
// row stride `out_stride` elements, a multiple of 32); elements past K are written as zero.
// Each 32-block's values are in the permuted K order of mainloop.cuh (the streaming kernel's
// kPermutedX). With row_scales (E4M3 only): fp16 values at a power of two per row instead,
// which goes to row_scales[r] (the fp16 values form, scale_window.cuh's kF16RowTopExponent).
void launch_activation_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, const ExactRowMarks& marks, float* row_scales,
                               cudaStream_t stream);

// a -> its fp16 codes (unscaled, exact) in the same layout, and its block scales as fp32 in
// scales[blk * scales_stride + row] (blk < ceil(K/32), row < rows).
void launch_activation_codes_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows,
                                     std::uint16_t* out, std::int64_t out_stride, float* scales,
                                     std::int64_t scales_stride, const ExactRowMarks& marks, cudaStream_t stream);

// The weight-only GEMM's activation: a (M x K BF16, validated) -> the same layout, values
// unchanged (no rounding: bf16 in, bf16 out).
void launch_activation_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, cudaStream_t stream);

// The weight-only GEMM's activation in the codes form (up to 8 rows): a (BF16 or FP16, validated)
// -> fp16 codes v * 2^-e in the layout above and the block scales 2^e as fp32, as
// launch_activation_codes_prepass of an MXFP8 activation; e is chosen per block so that the
// codes are exact. A block whose elements fp16 cannot hold exactly at one scale (spanning
// more than about 2^32), or that lies outside [2^-63, 2^63), marks its row for the exact path.
// An FP16 a is its own codes: written as it is with e = 0, never marked. natural_order: the
// codes in a's own K order, for a prepacked weight (KOrder::Prepacked, whose bytes already sit
// in the permuted order; K % 32 == 0).
void launch_activation_codes_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                     std::uint16_t* out, std::int64_t out_stride, float* scales,
                                     std::int64_t scales_stride, const ExactRowMarks& marks, cudaStream_t stream,
                                     bool natural_order = false);

// The weight-only GEMM's activation in the fp16 values form (E4M3 weights, 17 rows and more):
// a (BF16, validated, 16-byte aligned rows of a multiple of 8 elements) -> fp16 values at a
// power of two per row in the permuted K order, as launch_activation_prepass writes an E4M3
// activation's, the row's power to row_scales[r]; rows with a value fp16 cannot hold exactly
// at that power are marked (activation_prepass.cu). natural_order: in a's own K order, for a
// prepacked weight (as above).
void launch_activation_f16_rows_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                        std::uint16_t* out, std::int64_t out_stride, const ExactRowMarks& marks,
                                        float* row_scales, cudaStream_t stream, bool natural_order = false);

// The weight-only GEMM's activation in the bf16 values form read in the permuted K order (more
// than 16 rows, detail::StreamMxValues::Bf16Permuted): a (BF16, validated, 16-byte aligned rows
// of a multiple of 8 elements) -> the same values in the permuted K order of mainloop.cuh, K
// padded to whole 32-blocks with zeros, so that the kernel loads each weight row's fragment of a
// 32-block in one 8-byte load (kPermutedX) instead of four 2-byte ones.
void launch_activation_bf16_permuted_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                             std::uint16_t* out, std::int64_t out_stride, cudaStream_t stream);

#ifdef MXGEMM_STREAM_TRACE
// Development timeline: the first start and last end (global timer, ns) of the MXFP8 values
// pre-pass's CTAs since the last reset.
void prepass_trace_reset(cudaStream_t stream);
void prepass_trace_read(unsigned long long (&start_end)[2]);
#endif

}  // namespace mxgemm::sm90
