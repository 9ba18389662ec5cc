// Quantization of high-precision matrices to MXFP8 and back (MX_FORMAT.md, "Quantization").
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm {

// x (R x K, FP32/BF16/FP16, K contiguous) -> q.data (R x K, E4M3 or E5M2: q.data.dtype
// chooses) and q.scales (E8M0 in q.layout), one scale per 32 elements along K.
//
// Per block: amax = max |v|.
//   amax == 0            -> scale byte 0, elements +-0 (sign kept).
//   amax not finite      -> scale byte 0xFF (NaN block); NaN elements -> NaN (sign kept);
//                           Inf -> Inf for E5M2, NaN for E4M3 (no inf); finite elements
//                           -> +-0 (the whole block decodes to NaN anyway).
//   otherwise            -> shared_exp by `rounding`, clamped to [-127, 127];
//                           q = round_to_nearest_even(v / 2^shared_exp) saturated to +-max.
// Swizzled scale padding bytes are written as 0. Any R >= 1, K >= 1 (a short last block
// when K % 32 != 0).
//
// quantize_mxfp8: all views in Device memory, queued on `stream`.
// quantize_mxfp8_reference: all views in Host memory, exact CPU implementation.
void quantize_mxfp8(ConstMatrixView x, const MxOperand& q, ScaleRounding rounding,
                    cudaStream_t stream = nullptr);
void quantize_mxfp8_reference(ConstMatrixView x, const MxOperand& q, ScaleRounding rounding);

// Columnwise: x (R x K, FP32/BF16/FP16, K contiguous) -> qt, the MXFP8 form of x's
// transpose: qt.data is K x R (R contiguous, E4M3 or E5M2) and qt.scales hold one scale per
// 32 elements along R (qt.layout; shape as for a K x R operand: (K, ceil(R/32)) linear,
// (round_up(K,128), round_up(ceil(R/32),4)) swizzled). Element for element it equals
// quantize_mxfp8 of the transposed matrix, with the same block rules as above: blocks are
// 32 consecutive rows of one column of x (the last one short when R % 32 != 0). This is
// the operand the weight gradient dW = dY^T X needs, produced without materializing the
// transpose in high precision.
//
// quantize_mxfp8_columnwise: all views in Device memory, queued on `stream`.
// quantize_mxfp8_columnwise_reference: all views in Host memory, exact CPU implementation
// (transposes x and calls quantize_mxfp8_reference).
void quantize_mxfp8_columnwise(ConstMatrixView x, const MxOperand& qt, ScaleRounding rounding,
                               cudaStream_t stream = nullptr);
void quantize_mxfp8_columnwise_reference(ConstMatrixView x, const MxOperand& qt,
                                         ScaleRounding rounding);

// q (R x K MXFP8 with scales) -> out (R x K, FP32/BF16/FP16): 2^(s-127) * element, rounded
// to nearest even once (exact for FP32 with scales in normal range); NaN scale -> NaN.
void dequantize_mxfp8(const ConstMxOperand& q, MatrixView out, cudaStream_t stream = nullptr);
void dequantize_mxfp8_reference(const ConstMxOperand& q, MatrixView out);

}  // namespace mxgemm
