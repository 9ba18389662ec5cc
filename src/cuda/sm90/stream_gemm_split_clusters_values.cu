// The K-split clusters (StreamSchedule::k_split > 1) of the values form's split instances
// (stream_gemm_split_values.cu): up to 16 and up to 32 activation rows, either K order, bf16 or,
// for E4M3 weights, fp16 values (not at 16 rows in the permuted order: launch_stream_kernel).
#include "cuda/sm90/stream_gemm_split_clusters.cuh"

namespace mxgemm::sm90 {

#define MXGEMM_SPLIT_CLUSTERS(M, W, PERMUTED, F16X)                                                                   \
  template void launch_split_clusters<M, DType::W, false, PERMUTED, true, F16X>(                                      \
      const CUtensorMap&, const CUtensorMap&, const CUtensorMap&, const StreamGemmParams&, cudaStream_t);
MXGEMM_SPLIT_CLUSTERS(16, E4M3, false, false)
MXGEMM_SPLIT_CLUSTERS(16, E5M2, false, false)
MXGEMM_SPLIT_CLUSTERS(16, E4M3, false, true)
MXGEMM_SPLIT_CLUSTERS(16, E4M3, true, false)
MXGEMM_SPLIT_CLUSTERS(16, E5M2, true, false)
MXGEMM_SPLIT_CLUSTERS(32, E4M3, false, false)
MXGEMM_SPLIT_CLUSTERS(32, E5M2, false, false)
MXGEMM_SPLIT_CLUSTERS(32, E4M3, false, true)
MXGEMM_SPLIT_CLUSTERS(32, E4M3, true, false)
MXGEMM_SPLIT_CLUSTERS(32, E5M2, true, false)
MXGEMM_SPLIT_CLUSTERS(32, E4M3, true, true)
#undef MXGEMM_SPLIT_CLUSTERS

}  // namespace mxgemm::sm90
