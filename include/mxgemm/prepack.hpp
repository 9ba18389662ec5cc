// Prepacking an MXFP8 weight for the sm_90 weight-only GEMM (KOrder::Prepacked).
//
// The Hopper weight-only kernels multiply each thread's 8 elements of a 32-block as one
// register fragment. In a prepacked weight those 8 elements are 8 consecutive bytes, so a
// thread reads them with one 8-byte shared-memory load instead of four 2-byte ones, and the
// activation is still read in place. Prepack a checkpoint's weight once, when it is loaded;
// the scales do not change. Pass the result as ConstMxOperand{data, scales, layout,
// KOrder::Prepacked} to mxfp8_weight_only_mm (BF16 activations; other entry points refuse it).
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm {

// out[r, prepacked_column(k)] = w[r, k] (layout.hpp) for an N x K E4M3 or E5M2 weight, K a
// multiple of 32. out has w's dtype and shape; it may be w itself (same data and row stride),
// else must not overlap it. Device memory; addresses and row strides multiples of 16 bytes.
// Queued on `stream`; errors as for the GEMM entry points.
void mxfp8_prepack_weight(const ConstMatrixView& w, MatrixView out, cudaStream_t stream = nullptr);

// The same in Host memory (any alignment).
void mxfp8_prepack_weight_reference(const ConstMatrixView& w, MatrixView out);

}  // namespace mxgemm
