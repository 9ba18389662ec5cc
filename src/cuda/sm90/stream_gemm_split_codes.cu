// The streaming kernel with K split among its four warpgroups (StreamGemmConfig::kSplitK),
// codes form: up to 8 and up to 16 activation rows.
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<8, true, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                         const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<16, true, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                          const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
