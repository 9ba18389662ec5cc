// The skinny kernel's values form (BF16 activations: the weight-only GEMM), both weight types
// and both widths.
#include "cuda/sm90/skinny_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_skinny_kernel<DType::E4M3, DType::BF16, 1>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t);
template void launch_skinny_kernel<DType::E4M3, DType::BF16, 2>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t);
template void launch_skinny_kernel<DType::E5M2, DType::BF16, 1>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t);
template void launch_skinny_kernel<DType::E5M2, DType::BF16, 2>(SkinnyGemmParams, const ConstMxOperand&, const ConstMxOperand*, cudaStream_t);
}  // namespace mxgemm::sm90
