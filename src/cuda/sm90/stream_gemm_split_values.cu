// The streaming kernel with K split among its four warpgroups (StreamGemmConfig::kSplitK),
// values form: up to 16 and up to 32 activation rows, either K order.
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<16, false, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                           const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<16, false, true, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                          const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<32, false, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                           const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<32, false, true, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                          const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
