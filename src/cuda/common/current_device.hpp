// The current device as host code asks about it: its ordinal (per-device state and caches), its
// SM count (grid sizes and the kernel choices that depend on it), and whether a stream is
// capturing a CUDA graph (what a call may do then). Each call is checked.
#pragma once

#include <cuda_runtime_api.h>

#include "core/check.hpp"

namespace mxgemm::cuda {

inline int current_device() {
  int device = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

inline int current_device_sms() {
  int sms = 0;
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, current_device()));
  return sms;
}

inline bool stream_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  MXGEMM_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace mxgemm::cuda
