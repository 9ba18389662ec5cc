// The streaming kernel for up to 8 MX activation rows (codes form only).
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<8, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                            const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
