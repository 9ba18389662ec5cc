// The clusters (StreamSchedule::k_split > 1) of the 64-row values form (stream_gemm_m64.cu):
// 33..64 MXFP8 activation rows (the permuted K order) on weights whose 128-row tiles are too few
// for the SMs, each tile's K split among a cluster of CTAs (wide_cluster_ctas); bf16 values, or
// for E4M3 weights fp16 ones.
#include "cuda/sm90/stream_gemm_split_clusters.cuh"

namespace mxgemm::sm90 {

#define MXGEMM_WIDE_CLUSTERS(W, F16X)                                                                          \
  template void launch_split_clusters<64, DType::W, false, true, false, F16X>(                                \
      const CUtensorMap&, const CUtensorMap&, const CUtensorMap&, const StreamGemmParams&, cudaStream_t);
MXGEMM_WIDE_CLUSTERS(E4M3, false)
MXGEMM_WIDE_CLUSTERS(E5M2, false)
MXGEMM_WIDE_CLUSTERS(E4M3, true)
#undef MXGEMM_WIDE_CLUSTERS

}  // namespace mxgemm::sm90
