// The launch of one padded width of the streaming kernel, included by stream_gemm_m*.cu
// (one instantiation each, so that the builds run in parallel).
#pragma once

#include <array>
#include <atomic>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"
#include "cuda/common/once_per_device.hpp"
#include "cuda/sm90/stream_gemm_kernel.cuh"
#include "cuda/sm90/stream_reduce_kernel.cuh"
#include "cuda/sm90/stream_gemm_sm90.hpp"
#ifdef MXGEMM_STREAM_TRACE
#include <cstdlib>
#endif

namespace mxgemm::sm90 {

// The K-split clusters' instances (stream_gemm_kernel.cuh's kSplitClusters), for the launches
// of sched.k_split > 1: instantiated in stream_gemm_split_clusters_*.cu and
// stream_gemm_m64_clusters.cu, so that they build in parallel with the others.
template <int kMPad, DType kElemW, bool kCodes, bool kPermutedX, bool kSplitK, bool kF16X>
void launch_split_clusters(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                           const StreamGemmParams& p, cudaStream_t stream);

template <int kMPad, DType kElemW, bool kCodes, bool kPermutedX, bool kSplitK, bool kF16X = false,
          bool kSplitClusters = false>
void launch_stream_grid(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                        const StreamGemmParams& p, cudaStream_t stream) {
  using Cfg = StreamGemmConfig<kMPad, kCodes, kSplitK>;
  auto* kernel = &stream_gemm_sm90_kernel<kMPad, kElemW, kCodes, kPermutedX, kSplitK, kF16X, kSplitClusters>;
  // Once per device and instantiation (the attribute is per device).
  static std::atomic<std::uint64_t> configured{0};
  cuda::once_per_device(configured, [&] {
    MXGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           Cfg::kSmemBytes));
    // The warp roles' setmaxnreg budget must fit what ptxas gave the kernel, or the math
    // warps would wait for registers forever: refuse instead of hanging.
    cudaFuncAttributes attr{};
    MXGEMM_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (attr.numRegs * Cfg::kThreads < Cfg::kRegisterBudget)
      detail::fail<CudaError>("mxfp8_scaled_mm", "streaming kernel registers",
                              detail::concat(">= ", Cfg::kRegisterBudget, " per CTA"),
                              attr.numRegs * Cfg::kThreads);
  });
  // A programmatic dependent launch: the kernel starts streaming the weight while the
  // activation pre-pass, launched just before on this stream, still runs (the kernel waits
  // for it before its first activation load).
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(p.sched.ctas));
  config.blockDim = dim3(Cfg::kThreads);
  config.dynamicSmemBytes = Cfg::kSmemBytes;
  config.stream = stream;
  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  attr[1].id = cudaLaunchAttributeClusterDimension;
  attr[1].val.clusterDim.x = p.sched.k_split > 1 ? p.sched.k_split : 2;  // K-split clusters, or paired halves
  attr[1].val.clusterDim.y = 1;
  attr[1].val.clusterDim.z = 1;
  config.attrs = attr;
  // Paired halves run as clusters of two. A cluster's CTAs are scheduled together, so a pair
  // never waits for a CTA that is not running; but where the device fits fewer clusters than
  // there are pairs, the second wave would cost more than the exchange saves, and the tiles
  // take the fixup through L2 instead.
  StreamGemmParams q = p;
  if (q.sched.paired) {
    // Per device (devices of two kinds may share a process), once per instantiation; devices
    // past 64 ask every time, as once_per_device runs for them every time.
    static std::atomic<std::uint64_t> counted{0};
    static std::array<std::atomic<int>, 64> max_clusters{};
    const int device = cuda::current_device();
    int clusters = -1;
    cuda::once_per_device(counted, [&] {
      config.numAttrs = 2;
      MXGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
      if (device < 64) max_clusters[device].store(clusters, std::memory_order_relaxed);
    });
    if (clusters < 0) clusters = max_clusters[device].load(std::memory_order_relaxed);
    q.sched.paired = 2 * clusters >= q.sched.ctas;
  }
  // K-split clusters (kSplitK with sched.k_split > 1) exchange their sums through distributed
  // shared memory: a cluster is required. The clusters are independent of one another (a
  // cluster that found no room would wait for the SMs of others; the launcher picks a size
  // whose clusters all fit at once: split_k_cluster_ctas).
  config.numAttrs = q.sched.paired || q.sched.k_split > 1 ? 2 : 1;
#ifdef MXGEMM_STREAM_TRACE
  const bool trace = std::getenv("MXGEMM_TRACE") != nullptr;  // (each CTA clears its row)
#endif
  MXGEMM_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, tma_w, tma_x, tma_sx, q));
#ifdef MXGEMM_STREAM_TRACE
  if (trace) report_stream_trace(q, kMPad, stream);
#endif
  if constexpr (!kSplitK) {  // (kSplitK runs whole tiles: never a split reduction)
    if (!p.sched.split_reduce) return;
    // The split reduction, as a dependent launch too (the streaming kernel lets it start early
    // and it waits for that grid's end): a thread per 4 elements of a tile, so that all its
    // loads go out at once.
    config.gridDim = dim3(kReduceSlices<kMPad, kCodes>, static_cast<unsigned>(p.sched.stream_tiles()));
    config.blockDim = dim3(kReduceThreads);
    config.dynamicSmemBytes = 0;
    config.numAttrs = 1;  // (no clusters: a split reduction is never paired)
    MXGEMM_CUDA_CHECK(cudaLaunchKernelEx(&config, &stream_reduce_sm90_kernel<kMPad, kCodes>, p));
  }
}

template <int kMPad, DType kElemW, bool kCodes, bool kPermutedX, bool kSplitK, bool kF16X = false>
void launch_stream_instance(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                            const StreamGemmParams& p, cudaStream_t stream) {
  if constexpr (kSplitK || wide_clusters_built(kMPad, kCodes, kPermutedX)) {  // (the forms with cluster instances)
    if (p.sched.k_split > 1) {
      launch_split_clusters<kMPad, kElemW, kCodes, kPermutedX, kSplitK, kF16X>(tma_w, tma_x, tma_sx, p, stream);
      return;
    }
  }
  launch_stream_grid<kMPad, kElemW, kCodes, kPermutedX, kSplitK, kF16X>(tma_w, tma_x, tma_sx, p, stream);
}

template <int kMPad, bool kCodes, bool kPermutedX, bool kSplitK>
void launch_stream_kernel(const CUtensorMap& tma_w, const CUtensorMap& tma_x, const CUtensorMap& tma_sx,
                          const StreamGemmParams& p, DType w_dtype, bool f16_values, cudaStream_t stream) {
  // The fp16 values form (runs_f16_values): E4M3 weights only (the entry point refuses E5M2 ones
  // with FP16 activations; E5M2 MXFP8 operands keep the bf16 form).
  // The 16-row permuted order runs BF16 rows on prepacked weights only (launch_rows): MXFP8 rows
  // that few take the codes form, and BF16 ones reach the fp16 form from 17 rows
  // (StreamLaunch::x_f16_rows), so that instance is not built.
  if constexpr (!kCodes) {
    if (f16_values) {
      if constexpr (kMPad == 16 && kPermutedX)
        detail::fail<UnsupportedError>("launch_stream_kernel", "f16_values",
                                       "false at 16 rows in the permuted K order", "true");
      else {
        launch_stream_instance<kMPad, DType::E4M3, false, kPermutedX, kSplitK, true>(tma_w, tma_x, tma_sx, p, stream);
        return;
      }
    }
  }
  if (w_dtype == DType::E4M3)
    launch_stream_instance<kMPad, DType::E4M3, kCodes, kPermutedX, kSplitK>(tma_w, tma_x, tma_sx, p, stream);
  else
    launch_stream_instance<kMPad, DType::E5M2, kCodes, kPermutedX, kSplitK>(tma_w, tma_x, tma_sx, p, stream);
}

}  // namespace mxgemm::sm90
