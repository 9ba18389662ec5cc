// The current device's SM count: the grid sizes and the kernel choices that depend on it.
#pragma once

#include <cuda_runtime_api.h>

#include "core/check.hpp"

namespace mxgemm::cuda {

inline int current_device_sms() {
  int device = 0, sms = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&device));
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace mxgemm::cuda
