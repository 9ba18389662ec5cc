// The streaming kernel for up to 16 activation rows, both activation forms; the values form in
// either K order (the permuted one for prepacked weights).
#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {
template void launch_stream_kernel<16, false>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<16, false, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                      const StreamGemmParams&, DType, bool, cudaStream_t);
template void launch_stream_kernel<16, true>(const CUtensorMap&, const CUtensorMap&, const CUtensorMap&,
                                                const StreamGemmParams&, DType, bool, cudaStream_t);
}  // namespace mxgemm::sm90
