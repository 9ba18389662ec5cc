// Host entry of the sm_90a MXFP8 GEMM kernels. Arguments are already validated.
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

void launch_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                       const MatrixView& d, cudaStream_t stream);

}  // namespace mxgemm::sm90
