// The sm_100a MXFP8 GEMM with FP16 output (one CUTLASS instantiation per translation unit).
#include "cuda/sm100/mxfp8_gemm_sm100_kernel.cuh"

namespace mxgemm::sm100 {

void run_mxfp8_gemm_fp16(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                         const MatrixView& d, cudaStream_t stream) {
  run_mxfp8_gemm<cutlass::half_t>(a, b, alpha, d, stream);
}

}  // namespace mxgemm::sm100
