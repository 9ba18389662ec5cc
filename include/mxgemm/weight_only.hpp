// Weight-only MXFP8 GEMM: BF16/FP16 activations times an MXFP8 weight, as MXFP8
// checkpoints are served on Hopper (no activation quantization, no activation rounding).
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm {

// D[m, n] = alpha * sum_k a[m, k] * (2^(s[n, k/32] - 127) * w[n, k])  (+ bias[n]),
// accumulated in fp32 on the GPU (exactly in the reference), then alpha and the bias
// applied and the sum rounded once to D's type (round to nearest even). A NaN activation,
// weight element or weight scale makes every output it feeds NaN.
//
// a      M x K activations, BF16 or FP16, K contiguous (row_stride >= K), Device.
// w      N x K weight, E4M3 or E5M2 with E8M0 scales in either layout (as in
//        mxfp8_scaled_mm's operand b), Device; its elements in the natural order or prepacked
//        (w.order == KOrder::Prepacked, mxgemm/prepack.hpp: K % 32 == 0, and on Hopper BF16
//        activations only, FP16 ones refused with UnsupportedError).
// alpha  pointer to one fp32 in Device memory, read by the kernel.
// bias   null, or a 1 x N row of FP32, BF16 or FP16 in Device memory.
// d      M x N, BF16, FP16 or FP32, row-major (row_stride >= N), Device.
//
// Shapes: M, N >= 1, K >= 16 with K % 16 == 0. Alignment: w's data pointer and row stride
// multiples of 16 bytes; a, bias and d aligned to their element size.
//
// Backends: compute capability 9.0 (Hopper) runs the weight-streaming kernel (any M, in
// tiles of 128 activation rows; the activation is read in place when its address and row
// pitch are multiples of 16 bytes, else copied to a workspace first). BF16 activations
// multiply in bf16, FP16 ones in fp16 (exact for weight scale bytes 103..123, or 73..181 at up
// to 4 rows on weights of more than 2^25 elements; tiles with other scales take an exact fp64
// path). With FP16 activations an E5M2 weight is refused with
// UnsupportedError (an E5M2 code times its scale is an exact fp16 value in too narrow a window).
// Other devices: UnsupportedError.
// Errors as for mxfp8_scaled_mm; nothing is written to d unless all checks pass. Streams,
// CUDA graphs and the shared scratch memory: as for mxfp8_scaled_mm (mxgemm/workspace.hpp).
void mxfp8_weight_only_mm(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                          const ConstMatrixView* bias, MatrixView d, cudaStream_t stream = nullptr,
                          bool skip_checks = false);

// The exact reference: the same contract in Host memory with alpha a host value; the
// products of the exact values summed in fp64, alpha and the bias applied in fp64, one
// rounding to D's type. BF16 and FP16 activations. Multi-threaded, deterministic.
void mxfp8_weight_only_mm_reference(const ConstMatrixView& a, const ConstMxOperand& w, float alpha,
                                    const ConstMatrixView* bias, MatrixView d);

}  // namespace mxgemm
