// Picks the sm_100a instantiation by output type; without the CUTLASS path in this build
// it says so.
#include "cuda/sm100/mxfp8_gemm_sm100.hpp"

#include "core/check.hpp"

namespace mxgemm::sm100 {

void launch_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                       const MatrixView& d, cudaStream_t stream) {
#if defined(MXGEMM_HAVE_SM100)
  if (d.dtype == DType::BF16) run_mxfp8_gemm_bf16(a, b, alpha, d, stream);
  else run_mxfp8_gemm_fp16(a, b, alpha, d, stream);
#else
  (void)a, (void)b, (void)alpha, (void)d, (void)stream;
  throw UnsupportedError("mxfp8_scaled_mm: this build has no sm_100 path (configured without "
                         "CUTLASS headers, MXGEMM_SM100)");
#endif
}

}  // namespace mxgemm::sm100
