// Host entry of the sm_100a MXFP8 GEMM (CUTLASS block-scaled tensor cores). Arguments are
// already validated (validate_gemm and validate_gemm_sm100_support).
#pragma once

#include <cuda_runtime_api.h>

#include "mxgemm/types.hpp"

namespace mxgemm::sm100 {

// Throws UnsupportedError when this build has no sm_100 path; CudaError with CUTLASS's
// status string when can_implement / initialize / run fail.
void launch_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                       const MatrixView& d, cudaStream_t stream);

// One CUTLASS instantiation per output type, each in its own translation unit.
void run_mxfp8_gemm_bf16(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                         const MatrixView& d, cudaStream_t stream);
void run_mxfp8_gemm_fp16(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                         const MatrixView& d, cudaStream_t stream);

}  // namespace mxgemm::sm100
