// The K-split clusters (StreamSchedule::k_split > 1) of the 33..64-row split instances
// (stream_gemm_split_m64.cu), either K order, bf16 or, for E4M3 weights, fp16 values.
#include "cuda/sm90/stream_gemm_split_clusters.cuh"

namespace mxgemm::sm90 {

#define MXGEMM_SPLIT_CLUSTERS_M64(W, PERMUTED, F16X)                                                               \
  template void launch_split_clusters<64, DType::W, false, PERMUTED, true, F16X>(                                  \
      const CUtensorMap&, const CUtensorMap&, const CUtensorMap&, const StreamGemmParams&, cudaStream_t);
MXGEMM_SPLIT_CLUSTERS_M64(E4M3, false, false)
MXGEMM_SPLIT_CLUSTERS_M64(E5M2, false, false)
MXGEMM_SPLIT_CLUSTERS_M64(E4M3, false, true)
MXGEMM_SPLIT_CLUSTERS_M64(E4M3, true, false)
MXGEMM_SPLIT_CLUSTERS_M64(E5M2, true, false)
MXGEMM_SPLIT_CLUSTERS_M64(E4M3, true, true)
#undef MXGEMM_SPLIT_CLUSTERS_M64

}  // namespace mxgemm::sm90
