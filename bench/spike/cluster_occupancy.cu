// How many clusters of 1..8 CTAs of the streaming kernel's size (one CTA an SM: ~200 KB of
// shared memory, 640 threads) the device runs at once (cudaOccupancyMaxActiveClusters), which
// bounds the K-split clusters (StreamSchedule::k_split) that run in one wave.
// Build: nvcc -arch=sm_90a -o cluster_occupancy cluster_occupancy.cu
#include <cuda_runtime.h>

#include <cstdio>

__global__ void occupant() {
  extern __shared__ char smem[];
  smem[threadIdx.x] = 0;
}

int main() {
  const int smem = 200 * 1024;
  if (cudaFuncSetAttribute(occupant, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) != cudaSuccess) return 1;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  std::printf("SMs %d\n", sms);
  for (int c = 1; c <= 8; ++c) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(c * 16);
    config.blockDim = dim3(640);
    config.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = c;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    int n = 0;
    const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, occupant, &config);
    std::printf("cluster %d: %d clusters at once (%d CTAs) %s\n", c, n, n * c, cudaGetErrorString(e));
  }
  return 0;
}
