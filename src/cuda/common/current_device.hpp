// The current device as host code asks about it: its ordinal (per-device state and caches), its
// SM count (grid sizes and the kernel choices that depend on it), its peak memory bandwidth
// (kernel choices), and whether a stream is capturing a CUDA graph (what a call may do then).
// Each call is checked.
#pragma once

#include <cuda_runtime_api.h>

#include "core/check.hpp"
#include "core/per_device.hpp"

namespace mxgemm::cuda {

inline int current_device() {
  int device = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// What the kernel choices read of a device, fixed for its life: its SM count and its peak DRAM
// bandwidth (bytes a second, from the memory clock and bus width: whether memory or the SMs
// bind; 0 where the driver does not give them, which the choices read as slow memory).
struct DeviceTraits {
  int sms = 0;
  double dram_bytes_per_s = 0.0;
};

inline DeviceTraits read_device_traits(int device) {
  DeviceTraits t;
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&t.sms, cudaDevAttrMultiProcessorCount, device));
  // The bandwidth only steers a speed choice (weight_only_f16_form_preferred), and every entry
  // point, the quantizers included, reads these traits: a driver that refuses the memory
  // attributes must not make every call fail.
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    t.dram_bytes_per_s = 2.0 * 1e3 * clock_khz * (bus_bits / 8.0);  // double data rate
  else
    cudaGetLastError();  // not sticky; leave no error behind for the next check
  return t;
}

// The current device's traits, read once per device and process: every GEMM call asks (grid
// sizes, the values form's rule), and some attributes (the memory clock) are driver queries.
inline DeviceTraits current_device_traits() {
  static detail::PerDevice<DeviceTraits> cache;
  return cache.get(current_device(), read_device_traits);
}

inline int current_device_sms() { return current_device_traits().sms; }

inline bool stream_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  MXGEMM_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace mxgemm::cuda
