// The streaming kernel in tiles of 192 activation rows (width_192_taken; three quarters of the
// 256-row tile's tensor work), the activation in either K order (values form).
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<192, false>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<192, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                      const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
