// The definition of launch_split_clusters (stream_gemm_launch.cuh), included by the translation
// units that instantiate it (stream_gemm_split_clusters_*.cu, stream_gemm_m64_clusters.cu).
#pragma once

#include "cuda/sm90/stream_gemm_launch.cuh"

namespace mxgemm::sm90 {

template <int kMPad, DType kElemW, bool kCodes, bool kPermutedX, bool kSplitK, bool kF16X>
void launch_split_clusters(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                           const StreamGemmParams& p, cudaStream_t stream) {
  launch_stream_grid<kMPad, kElemW, kCodes, kPermutedX, kSplitK, kF16X, true>(tma_w, tma_x, tma_sx, p, stream);
}

}  // namespace mxgemm::sm90
