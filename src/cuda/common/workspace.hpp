// A device workspace per device that only grows: kernels that need scratch memory (the
// CUTLASS path) take it from here instead of allocating on every call.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace mxgemm::cuda {

// At least `bytes` of device memory on the current device, valid until the next call that
// grows it. Not for concurrent use from several host threads on one device with different
// streams. Throws CudaError when the allocation fails.
void* device_workspace(std::size_t bytes);

// At least `count` unsigned ints on the current device that are zero whenever no kernel is
// running: allocated zeroed (on `stream`), and every kernel that counts on them returns them
// to zero. Used as per-tile arrival counters. Same threading caveat as device_workspace.
unsigned int* device_zeroed_counters(std::size_t count, cudaStream_t stream);

}  // namespace mxgemm::cuda
