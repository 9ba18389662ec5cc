// The streaming kernel for up to 128 activation rows, the activation in either K order (values form).
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<128, false>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<128, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                      const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
