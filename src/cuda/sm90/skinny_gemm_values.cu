// The skinny kernel's values form (BF16 activations: the weight-only GEMM), both weight types,
// both widths and both weight orders.
#include "cuda/sm90/skinny_gemm_launch.cuh"

namespace mxgemm::sm90 {
#define MXGEMM_SKINNY_VALUES(W, TILES, PREPACKED)                                                           \
  template void launch_skinny_kernel<DType::W, DType::BF16, TILES, PREPACKED>(SkinnyGemmParams, const ConstMxOperand&, \
                                                                              const ConstMxOperand*, cudaStream_t);
MXGEMM_SKINNY_VALUES(E4M3, 1, false)
MXGEMM_SKINNY_VALUES(E4M3, 2, false)
MXGEMM_SKINNY_VALUES(E5M2, 1, false)
MXGEMM_SKINNY_VALUES(E5M2, 2, false)
MXGEMM_SKINNY_VALUES(E4M3, 1, true)
MXGEMM_SKINNY_VALUES(E4M3, 2, true)
MXGEMM_SKINNY_VALUES(E5M2, 1, true)
MXGEMM_SKINNY_VALUES(E5M2, 2, true)
#undef MXGEMM_SKINNY_VALUES
}  // namespace mxgemm::sm90
