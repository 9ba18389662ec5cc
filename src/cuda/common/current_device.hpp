// The current device as host code asks about it: its ordinal (per-device state and caches), its
// SM count (grid sizes and the kernel choices that depend on it), its peak memory bandwidth
// (kernel choices), and whether a stream is capturing a CUDA graph (what a call may do then).
// Each call is checked.
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

// Peak DRAM bandwidth (bytes a second) from the memory clock and bus width: the kernel choices
// that depend on whether memory or the SMs bind.
inline double current_device_dram_bytes_per_s() {
  int clock_khz = 0, bus_bits = 0;
  const int device = current_device();
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  return 2.0 * 1e3 * clock_khz * (bus_bits / 8.0);  // double data rate
}

inline bool stream_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  MXGEMM_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace mxgemm::cuda
