// Host entry of the sm_90a MXFP8 GEMM kernels. Arguments are already validated.
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Picks the kernel by shape: the skinny kernel for up to 16 activation rows, else the
// streaming kernel (the tiled one only when forced, detail::ScopedSm90Kernel).
void launch_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                       const MatrixView& d, cudaStream_t stream);

// The weight-only GEMM (A BF16): the skinny kernel for up to 16 rows it can read in place,
// else the streaming kernel.
void launch_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                        const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream);

}  // namespace mxgemm::sm90
