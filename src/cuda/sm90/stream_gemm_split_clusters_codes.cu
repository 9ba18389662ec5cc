// The K-split clusters (StreamSchedule::k_split > 1) of the codes form's split instances
// (stream_gemm_split_codes.cu): up to 8 and up to 16 activation rows.
#include "cuda/sm90/stream_gemm_split_clusters.cuh"

namespace mxgemm::sm90 {

#define MXGEMM_SPLIT_CLUSTERS(M, W)                                                                                   \
  template void launch_split_clusters<M, DType::W, true, false, true, false>(                                         \
      const CUtensorMap&, const CUtensorMap&, const CUtensorMap&, const StreamGemmParams&, cudaStream_t);
MXGEMM_SPLIT_CLUSTERS(8, E4M3)
MXGEMM_SPLIT_CLUSTERS(8, E5M2)
MXGEMM_SPLIT_CLUSTERS(16, E4M3)
MXGEMM_SPLIT_CLUSTERS(16, E5M2)
#undef MXGEMM_SPLIT_CLUSTERS

}  // namespace mxgemm::sm90
