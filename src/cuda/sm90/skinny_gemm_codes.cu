// The skinny kernel's codes form (MXFP8 activations), every fp8 type pair and both widths.
#include "cuda/sm90/skinny_gemm_launch.cuh"

namespace mxgemm::sm90 {
#define MXGEMM_SKINNY_CODES(W, X)                                                          \
  template void launch_skinny_kernel<DType::W, DType::X, 1>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t); \
  template void launch_skinny_kernel<DType::W, DType::X, 2>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t);
MXGEMM_SKINNY_CODES(E4M3, E4M3)
MXGEMM_SKINNY_CODES(E4M3, E5M2)
MXGEMM_SKINNY_CODES(E5M2, E4M3)
MXGEMM_SKINNY_CODES(E5M2, E5M2)
#undef MXGEMM_SKINNY_CODES
}  // namespace mxgemm::sm90
