// The streaming kernel with K split between the two math warpgroups of 33..64 activation rows
// (StreamGemmConfig::kSplitK, two 128-K parts a ring stage), the activation in either K order.
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<64, false, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                           const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<64, false, true, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                          const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
