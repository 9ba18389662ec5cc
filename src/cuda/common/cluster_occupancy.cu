#include "cuda/common/cluster_occupancy.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <tuple>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"

namespace mxgemm::cuda {
namespace {

__global__ void cluster_probe_kernel() {}

}  // namespace

int max_active_clusters(int cluster_ctas, int threads, int smem_bytes) {
  const int device = current_device();
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int, int>, int> cache;
  const auto key = std::make_tuple(device, cluster_ctas, threads, smem_bytes);
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  MXGEMM_CUDA_CHECK(cudaFuncSetAttribute(cluster_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(cluster_ctas));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = static_cast<std::size_t>(smem_bytes);
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster_ctas);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  int clusters = 0;
  MXGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_probe_kernel, &config));
  cache[key] = clusters;
  return clusters;
}

}  // namespace mxgemm::cuda
