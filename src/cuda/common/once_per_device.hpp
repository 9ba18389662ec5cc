// Host-side: run a setup step (a kernel attribute, which CUDA keeps per device) once per
// device and process, not once per process: a GEMM on a second GPU needs it again.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>

#include "cuda/common/current_device.hpp"

namespace mxgemm::cuda {

// Calls setup() unless it already ran on the current device for this `done` mask (devices
// 0..63; others run it every time). Concurrent first calls may both run it: harmless for
// idempotent setup such as cudaFuncSetAttribute.
template <typename Setup>
void once_per_device(std::atomic<std::uint64_t>& done, const Setup& setup) {
  const int device = current_device();
  const std::uint64_t bit = device < 64 ? std::uint64_t{1} << device : 0;
  if (bit != 0 && (done.load(std::memory_order_acquire) & bit) != 0) return;
  setup();
  done.fetch_or(bit, std::memory_order_release);
}

}  // namespace mxgemm::cuda
